#!/usr/bin/env bash
# The whole test suite, as CI runs it: build (the drain and reload tests run the built `folio`
# executable, which `swift test` alone does not relink), then the engine's tests and the rest
# in two parallel runs. Apart, because the engine's CPU-heavy tests (sorting a million keys,
# random JSON) would starve the real timers of the gateway's tests on a 2-core machine.
# FOLIO_TEST_SERIAL=1 runs everything one test at a time instead (a loaded or slower machine).
# Extra arguments go to both `swift test` runs (e.g. `--filter`-free flags such as `-c release`).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build "$@" 2>&1 | tail -n 50
if [ "${FOLIO_TEST_SERIAL:-}" = 1 ]; then
    exec swift test --no-parallel "$@"
fi
# The client's tests (a real gateway each, but no tight timers) run beside the engine's, so the
# gateway's timeout tests keep the machine to themselves too.
swift test --filter 'FolioEngineTests|FolioClientTests' "$@"
swift test --skip 'FolioEngineTests|FolioClientTests' "$@"
