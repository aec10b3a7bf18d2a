#!/usr/bin/env bash
# What tracing costs a cached page (issue 20; BENCHMARKS.md "Tracing"), side by side in one run:
#   before   — a build without tracing (BEFORE=path, optional)
#   off      — this build, no `tracing:` keys (spans get ids for traceparent, nothing recorded)
#   sampled  — this build, otlpEndpoint set and sampleRatio 1.0: every request recorded and
#              exported (JSON over HTTP) to a small receiver that answers 200
#   ratio1pct — the same with sampleRatio 0.01
# wrk -t1 -c32 on /objects?pageSize=25 (cached), access log off, rounds alternating, medians.
# Usage: [BEFORE=/path/to/folio] scripts/bench-tracing.sh [FOLIO]   Env: ROUNDS (3), DURATION (10s)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FOLIO=${1:-$ROOT/.build/release/folio}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
WORK=$(mktemp -d)
PIDS=()
trap 'for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$WORK"' EXIT
UP=18291; RECV=18292
python3 -c "
import json; open('$WORK/list.json','w').write(json.dumps([{'id':i,'name':'Item %06d'%i,'price':i%100} for i in range(10000)]))"
(cd "$WORK" && exec python3 -m http.server $UP --bind 127.0.0.1 >/dev/null 2>&1) & PIDS+=($!)
cat > "$WORK/receiver.py" <<'PY'
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(200); self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", "2"); self.end_headers(); self.wfile.write(b"{}")
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
PY
python3 "$WORK/receiver.py" $RECV & PIDS+=($!)
sleep 1
start() { # NAME BINARY PORT TRACING
    cat > "$WORK/$1.yaml" <<YAML
server: { listen: "127.0.0.1:$3", admin: null }
logging: { level: warning, access: false }
$4
routes:
  - name: objects
    path: /objects
    upstream: http://127.0.0.1:$UP/list.json
YAML
    "$2" serve --config "$WORK/$1.yaml" >"$WORK/$1.log" 2>&1 & PIDS+=($!)
    for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$3/objects?pageSize=25" && return; sleep 0.1; done
    echo "$1 did not start" >&2; exit 1
}
NAMES=()
if [ -n "${BEFORE:-}" ]; then start before "$BEFORE" 18281 ""; NAMES+=(before:18281); fi
start off "$FOLIO" 18282 ""; NAMES+=(off:18282)
start sampled "$FOLIO" 18283 "tracing: { otlpEndpoint: http://127.0.0.1:$RECV, sampleRatio: 1.0 }"; NAMES+=(sampled:18283)
start ratio1pct "$FOLIO" 18284 "tracing: { otlpEndpoint: http://127.0.0.1:$RECV, sampleRatio: 0.01 }"; NAMES+=(ratio1pct:18284)
: > "$WORK/wrk.txt"
for round in $(seq "$ROUNDS"); do
    for entry in "${NAMES[@]}"; do
        name=${entry%%:*}; port=${entry##*:}
        rps=$(wrk -t1 -c32 -d"$DURATION" "http://127.0.0.1:$port/objects?pageSize=25" | awk '/^Requests\/sec:/ {print $2}')
        echo "$name $rps" >> "$WORK/wrk.txt"; echo "round $round $name $rps req/s" >&2
    done
done
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
echo "cached 25-item page, wrk -t1 -c32 -d$DURATION, $ROUNDS rounds, median req/s"
for entry in "${NAMES[@]}"; do name=${entry%%:*}; echo "$name $(awk -v n="$name" '$1 == n {print $2}' "$WORK/wrk.txt" | median)"; done
