#!/usr/bin/env bash
# The house style (.swift-format: swift-format's defaults with 4-space indents, 120 columns and
# no OnlyOneTrailingClosureArgument) over every Swift file of the three packages. Exits non-zero
# on any finding. `scripts/format-check.sh --fix` rewrites the files instead.
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Sources Tests Benchmarks/Sources Benchmarks/Benchmarks Fuzz/Sources Package.swift Benchmarks/Package.swift
    Fuzz/Package.swift)
if [ "${1:-}" = --fix ]; then
    exec swift format format --in-place --recursive --parallel --configuration .swift-format "${paths[@]}"
fi
swift format lint --strict --recursive --parallel --configuration .swift-format "${paths[@]}"
