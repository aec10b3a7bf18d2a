#!/usr/bin/env bash
# Issue 39's memory check: what a compression bomb costs Folio. The upstream serves 1 GiB of zero
# bytes gzip- (or deflate-) compressed, about 1 MB on the wire, in 64 KiB writes; Folio must
# answer 502 ("invalid JSON at byte 0") having inflated little of it. Prints Folio's peak
# resident memory (VmHWM) after a warm-up and after one bomb, then (a fresh Folio) after ten at once.
# Usage: scripts/bomb-memory.sh [path-to-folio-binary]   (default: .build/release/folio, else debug)
# CODING=deflate for a zlib-wrapped body; RUNS=N repeats the single bomb N times (a fresh Folio
# each) and prints every growth.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-}
if [ -z "$BIN" ]; then
  if [ -x .build/release/folio ]; then BIN=.build/release/folio; else swift build --product folio >/dev/null; BIN=.build/debug/folio; fi
fi
CODING=${CODING:-gzip}
RUNS=${RUNS:-1}
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT

# /list/warm: a small good list, compressed; any other /list/N: the bomb.
cat > "$WORK/upstream.py" <<'PY'
import http.server, sys, zlib
CODING = sys.argv[2]
def compressor():
    return zlib.compressobj(9, zlib.DEFLATED, 31 if CODING == "gzip" else 15)
c = compressor()
block = bytes(1 << 20)
BOMB = b"".join(c.compress(block) for _ in range(1024)) + c.flush()
c = compressor()
GOOD = c.compress(("[" + ",".join('{"id":%d,"name":"item %d"}' % (i, i) for i in range(2000)) + "]").encode()) + c.flush()
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        body = GOOD if self.path.endswith("/warm") else BOMB
        self.send_response(200); self.send_header("Content-Type", "application/json")
        self.send_header("Content-Encoding", CODING)
        self.send_header("Content-Length", str(len(body))); self.end_headers()
        try:
            for i in range(0, len(body), 65536): self.wfile.write(body[i:i + 65536])
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
    def log_message(self, *a): pass
class S(http.server.ThreadingHTTPServer):
    def handle_error(self, *a): pass  # Folio hangs up on bombs: that is the point
S(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
PY
# Below the ephemeral range (32768-), so an outgoing connection never holds a chosen port.
UP=$((10000 + RANDOM % 10000))
python3 "$WORK/upstream.py" $UP "$CODING" &
for _ in $(seq 200); do curl -sf -o /dev/null "http://127.0.0.1:$UP/list/warm" && break; sleep 0.1; done
echo "bomb: $(curl -s "http://127.0.0.1:$UP/list/0" | wc -c) bytes $CODING, 1 GiB decoded"

hwm() { awk '/VmHWM/ {print int($2 / 1024)}' /proc/$1/status; }
start_folio() {
  GW=$((20000 + RANDOM % 10000)); ADMIN=$((GW + 1))
  cat > "$WORK/folio.yaml" <<YAML
server: { listen: "127.0.0.1:$GW", admin: "127.0.0.1:$ADMIN" }
logging: { level: error, access: false }
routes:
  - name: lists
    path: /lists/{id}
    upstream: http://127.0.0.1:$UP/list/{id}
YAML
  "$BIN" serve --config "$WORK/folio.yaml" > "$WORK/folio.log" 2>&1 &
  PID=$!
  for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$GW/lists/warm" && break; sleep 0.1; done
  kill -0 $PID 2>/dev/null || { echo "folio did not start: $(cat "$WORK/folio.log")"; exit 1; }
  for i in $(seq 5); do curl -sf -o /dev/null "http://127.0.0.1:$GW/lists/warm?pageSize=$i"; done
}
bomb() { curl -s -o /dev/null -w '%{http_code} %{time_total}s\n' "http://127.0.0.1:$GW/lists/bomb-$1"; }

for run in $(seq "$RUNS"); do
  start_folio
  BEFORE=$(hwm $PID)
  ONE=$(bomb "$run")
  AFTER=$(hwm $PID)
  echo "run $run: warm-up peak ${BEFORE} MiB; one bomb: $ONE, peak ${AFTER} MiB (+$((AFTER - BEFORE)) MiB)"
  kill $PID; wait $PID 2>/dev/null || true
done
start_folio
BEFORE=$(hwm $PID)
CURLS=()
for i in $(seq 10); do bomb "ten-$i" > "$WORK/ten.$i" & CURLS+=($!); done
wait "${CURLS[@]}"
AFTER=$(hwm $PID)
echo "ten bombs at once: $(cat "$WORK"/ten.* | awk '{print $1}' | sort | uniq -c | xargs), slowest $(cat "$WORK"/ten.* | awk '{print $2}' | sort -n | tail -1); warm-up peak ${BEFORE} MiB, peak ${AFTER} MiB (+$((AFTER - BEFORE)) MiB)"
kill $PID; wait $PID 2>/dev/null || true
