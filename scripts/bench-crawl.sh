#!/usr/bin/env bash
# Crawl benchmark: 500 upstream pages of 200 items (100,000 items), each page answered after
# 20 ms, crawled through a release `folio` sequentially (`style: linkHeader`) and in parallel
# (`style: page` + `totalField`, concurrency 8 and 16). One cold request per run
# (`/objects?pageSize=1`, `cache.ttl: 0s`, so each request crawls all pages again); prints the
# best and median wall time of RUNS runs and the ratio to the ideal `pages / concurrency × 20 ms`.
# Usage: scripts/bench-crawl.sh [path-to-folio-binary]   (default: .build-release/release/folio)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-.build-release/release/folio}
RUNS=${RUNS:-3}
[ -x "$BIN" ] || { echo "no $BIN: swift build -c release --scratch-path .build-release --product folio" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT

cat > "$WORK/upstream.py" <<'PY'
import http.server, sys, time, urllib.parse
PAGES, PER, DELAY = 500, 200, 0.020
TOTAL = PAGES * PER
def items(page):
    first = (page - 1) * PER
    return ",".join('{"id":%d,"name":"item %d","price":%d.5}' % (i, i, i % 997) for i in range(first, first + PER))
LINK = [items(p) for p in range(1, PAGES + 1)]
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Head and body are two writes: with Nagle on, the body waits for a delayed ACK (40 ms).
    disable_nagle_algorithm = True
    def do_GET(self):
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
        page = int(query.get("page", ["1"])[0])
        time.sleep(DELAY)
        extra = []
        if not 1 <= page <= PAGES:
            body = "[]"
        elif "per_page" in query:
            body = '{"data":[%s],"total":%d}' % (LINK[page - 1], TOTAL)
        else:
            body = "[%s]" % LINK[page - 1]
            if page < PAGES: extra = [("Link", '</items?page=%d>; rel="next"' % (page + 1))]
        data = body.encode()
        self.send_response(200); self.send_header("Content-Type", "application/json")
        for name, value in extra: self.send_header(name, value)
        self.send_header("Content-Length", str(len(data))); self.end_headers(); self.wfile.write(data)
    def log_message(self, *a): pass
class S(http.server.ThreadingHTTPServer):
    request_queue_size = 128
S(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
PY
UP=$((20000 + RANDOM % 10000)); GW=$((30000 + RANDOM % 10000))
python3 "$WORK/upstream.py" $UP &
for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$UP/items?page=500" && break; sleep 0.1; done

run_case() {  # name, concurrency, route keys
  cat > "$WORK/folio.yaml" <<YAML
server: { listen: "127.0.0.1:$GW", admin: null }
logging: { level: warning, access: false }
routes:
  - name: objects
    path: /objects
    upstream: http://127.0.0.1:$UP/items
    cache: { ttl: 0s, staleWhileRevalidate: 0s, staleIfError: 0s }
$3
YAML
  "$BIN" serve --config "$WORK/folio.yaml" & local pid=$!
  for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$GW/healthz" && break; sleep 0.1; done
  local times=()
  for _ in $(seq "$RUNS"); do
    times+=("$(curl -s -o /dev/null -w '%{time_total}' "http://127.0.0.1:$GW/objects?pageSize=1")")
  done
  kill "$pid"; wait "$pid" 2>/dev/null || true
  python3 - "$1" "$2" "${times[@]}" <<'PY'
import sys
name, concurrency, times = sys.argv[1], int(sys.argv[2]), sorted(float(t) * 1000 for t in sys.argv[3:])
ideal = 500 / concurrency * 20
print("%-48s best %6.0f ms  median %6.0f ms  ideal %6.0f ms  best/ideal %.2f×" % (name, times[0], times[len(times) // 2], ideal, times[0] / ideal))
PY
}
run_case "sequential (linkHeader)" 1 "    upstreamPaging: { style: linkHeader }"
run_case "parallel (page + totalField, concurrency 8)" 8 \
  "    items: /data
    upstreamPaging: { style: page, size: 200, totalField: /total, concurrency: 8 }"
run_case "parallel (page + totalField, concurrency 16)" 16 \
  "    items: /data
    upstreamPaging: { style: page, size: 200, totalField: /total, concurrency: 16 }"
