#!/usr/bin/env bash
# Builds the libFuzzer package (Fuzz/) with ASan and runs one target.
#
#   scripts/fuzz.sh TARGET [SECONDS]     e.g. scripts/fuzz.sh FuzzListIndexer 600
#   scripts/fuzz.sh --build              only build every target
#
# Targets: FuzzListIndexer FuzzQuery FuzzLinkHeader FuzzConfig. Seeds are read from
# Fuzz/Corpus/TARGET (committed); inputs libFuzzer finds go to Fuzz/.build/corpus/TARGET and
# crashes to Fuzz/.build/artifacts/TARGET/ (neither committed: turn a crash into a regression
# test and, if it is a good seed, copy it into Fuzz/Corpus/TARGET). Extra libFuzzer flags can be
# passed in FUZZ_FLAGS. One process, one core.
set -euo pipefail
cd "$(dirname "$0")/../Fuzz"

flags=(-c debug -Xswiftc -sanitize=fuzzer,address)
# gold warns once per ASan helper symbol on every link; nothing to act on.
build() { swift build "${flags[@]}" "$@" 2>&1 | { grep -v "Cannot export local symbol" || true; }; }
targets=(FuzzListIndexer FuzzQuery FuzzLinkHeader FuzzConfig)
if [[ "${1:-}" == "--build" ]]; then
    # Product by product: a plain `swift build` would also build every product of the root
    # package (Hummingbird, NIO SSL, ...) with the sanitizers.
    for target in "${targets[@]}"; do build --product "$target"; done
    exit 0
fi
target=${1:?usage: scripts/fuzz.sh TARGET [SECONDS]}
seconds=${2:-60}
build --product "$target"
bin="$(swift build "${flags[@]}" --show-bin-path)/$target"

mkdir -p ".build/corpus/$target" ".build/artifacts/$target"
# Swift's own backtracer, run inside ASan after a fatalError, reports itself as a
# stack-buffer-underflow; the fatalError message above it is the finding.
export SWIFT_BACKTRACE=enable=no
# -rss_limit_mb: the indexer target caps bodies at 4 MiB, so anything near 2 GiB is a leak.
# shellcheck disable=SC2086
exec "$bin" ".build/corpus/$target" "Corpus/$target" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix=".build/artifacts/$target/" ${FUZZ_FLAGS:-}
