#!/usr/bin/env bash
# The whole test suite, as CI runs it: build (the drain and reload tests run the built `folio`
# executable, which `swift test` alone does not relink), then the engine's tests, the client's
# and the rest in three runs, one after another (each runs its tests in parallel). Apart,
# because the engine's CPU-heavy tests (sorting a million keys, random JSON) would starve the
# real timers of the gateway's and the client's tests on a 2-core machine.
# FOLIO_TEST_SERIAL=1 runs everything one test at a time instead (a loaded or slower machine).
# Extra arguments go to every `swift test` run (e.g. `--filter`-free flags such as `-c release`).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build "$@" 2>&1 | tail -n 50
if [ "${FOLIO_TEST_SERIAL:-}" = 1 ]; then
    exec swift test --no-parallel "$@"
fi
swift test --filter FolioEngineTests "$@"
# The client's tests on their own: their gateways and upstreams answer on Swift's cooperative
# pool, which the engine's CPU-bound tests would hold for seconds.
swift test --filter FolioClientTests "$@"
swift test --skip 'FolioEngineTests|FolioClientTests' "$@"
