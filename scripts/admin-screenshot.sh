#!/usr/bin/env bash
# Takes docs/admin-page.png: runs `folio demo`, makes a few requests (fills, hits, a crawl, a
# 404), then has headless Chromium open the admin page (Tests/Browser/admin_page.py, which also
# checks it) and save a screenshot.
#   scripts/admin-screenshot.sh [FOLIO_BINARY] [PNG]   # defaults: .build/debug/folio docs/admin-page.png
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build/debug/folio}
png=${2:-docs/admin-page.png}
port=${FOLIO_DEMO_PORT:-18080}
log=$(mktemp)
"$binary" demo --port "$port" >"$log" 2>&1 &
demo=$!
trap 'kill "$demo" 2>/dev/null || true; wait "$demo" 2>/dev/null || true; rm -f "$log"' EXIT
admin=""
for _ in $(seq 1 300); do
    admin=$(sed -n 's/.*"listener":"admin".*"port":\([0-9]*\).*/\1/p' "$log" | head -n 1)
    [[ -n "$admin" ]] && grep -q '"listener":"client"' "$log" && break
    sleep 0.1
done
[[ -n "$admin" ]] || { echo "folio demo did not start:" >&2; cat "$log" >&2; exit 1; }
base=http://127.0.0.1:$port
for path in '/objects?pageSize=3' '/objects?pageSize=3&page=100' '/objects?sort=-price&pageSize=3' \
    '/paged-objects?pageSize=5&page=3' '/drf/objects?page=2&page_size=3' '/hal/objects?page=1&size=3' \
    '/objects?q=orst&pageSize=3' '/nowhere'; do
    curl -s -o /dev/null "$base$path"
done
scripts/browser-python.sh Tests/Browser/admin_page.py --url "http://127.0.0.1:$admin/" --route objects \
    --screenshot "$png"
echo "wrote $png"
