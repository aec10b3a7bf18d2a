#!/usr/bin/env bash
# FolioClient is for apps: it must link Foundation (URLSession; FoundationNetworking on Linux)
# and nothing of the server (no FolioEngine, FolioGateway, NIO, Hummingbird). Fails when the
# manifest gives FolioClient any target or product dependency, when folio-scroll depends on more
# than FolioClient and ArgumentParser, or when a FolioClient source imports another module.
set -euo pipefail
cd "$(dirname "$0")/.."

description=$(swift package describe --type json)
dependencies() {
    jq -r --arg target "$1" \
        '.targets[] | select(.name == $target) | ((.target_dependencies // []) + (.product_dependencies // []))[]' \
        <<<"$description" | sort | tr '\n' ' '
}

status=0
client=$(dependencies FolioClient)
if [ -n "$client" ]; then
    echo "FolioClient must depend on nothing but Foundation; the manifest gives it: $client" >&2
    status=1
fi
scroll=$(dependencies folio-scroll)
if [ "$scroll" != "ArgumentParser FolioClient " ]; then
    echo "folio-scroll must depend on FolioClient and ArgumentParser only; it has: $scroll" >&2
    status=1
fi
imports=$(grep -hoE '^\s*(@[A-Za-z_]+ )*import [A-Za-z_]+' Sources/FolioClient/*.swift | awk '{print $NF}' | sort -u |
    grep -vxE 'Foundation|FoundationNetworking|Synchronization' || true)
if [ -n "$imports" ]; then
    echo "FolioClient imports modules beyond Foundation: $(echo $imports)" >&2
    status=1
fi
[ "$status" = 0 ] && echo "FolioClient: Foundation only; folio-scroll: FolioClient + ArgumentParser"
exit "$status"
