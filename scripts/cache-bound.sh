#!/usr/bin/env bash
# Issue 5's memory check: with cache.maxBytes 64MiB, fetch 200 distinct ~1 MiB lists through
# Folio and report its resident memory (VmRSS now, VmHWM peak) against the bound.
# Usage: scripts/cache-bound.sh [path-to-folio-binary]   (default: .build/release/folio, else debug)
# SORTED=1 also asks each list for ?sort=-name, an order built after the list was stored (its
# bytes count against the bound too).
# CHURN=N instead runs issue 12's key-churn check: cache.maxBytes 32MiB, one ~100 KiB list
# fetched under N distinct `forwardQuery` values (one cache key each), RSS printed every N/4 keys;
# CLIENTS=C spreads them over C concurrent keep-alive clients.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-}
if [ -z "$BIN" ]; then
  if [ -x .build/release/folio ]; then BIN=.build/release/folio; else swift build --product folio >/dev/null; BIN=.build/debug/folio; fi
fi
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT

# An upstream serving /list/N: 13,500 objects (~1 MiB) whose text depends on N.
cat > "$WORK/upstream.py" <<'PY'
import http.server, sys
ITEMS = int(sys.argv[2]) if len(sys.argv) > 2 else 13500
class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        n = self.path.split("?", 1)[0].rsplit("/", 1)[-1]
        body = ("[" + ",".join('{"id":%d,"list":"%s","name":"item %d of list %s padding padding padding"}' % (i, n, i, n) for i in range(ITEMS)) + "]").encode()
        self.send_response(200); self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
    def log_message(self, *a): pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
PY
if [ -n "${CHURN:-}" ]; then MAXBYTES=32MiB; else MAXBYTES=64MiB; fi
UP=$((20000 + RANDOM % 10000)); GW=$((30000 + RANDOM % 10000)); ADMIN=$((GW + 1))
python3 "$WORK/upstream.py" $UP ${CHURN:+1350} &
for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$UP/list/0" && break; sleep 0.1; done
cat > "$WORK/folio.yaml" <<YAML
server: { listen: "127.0.0.1:$GW", admin: "127.0.0.1:$ADMIN" }
logging: { level: warning, access: false }
cache: { maxBytes: $MAXBYTES }
routes:
  - name: lists
    path: /lists/{id}
    upstream: http://127.0.0.1:$UP/list/{id}
    sortable: [name]
    forwardQuery: [k]
YAML
"$BIN" serve --config "$WORK/folio.yaml" > "$WORK/folio.log" 2>&1 &
PID=$!
for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$GW/lists/warmup" && break; sleep 0.1; done
rss() { awk '/VmRSS|VmHWM/ {printf "%s %d MiB  ", $1, $2/1024}' /proc/$PID/status; echo; }
echo "after warm-up:   $(rss)"
if [ -n "${CHURN:-}" ]; then
  # CLIENTS keep-alive clients (default 1) take the keys in turn, so the figure is Folio's and
  # not process start-up; with several, requests land on every event loop thread at once.
  cat > "$WORK/churn.py" <<'PY'
import http.client, sys, threading
port, total, pid, clients = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
def rss():
    fields = dict(l.split(":", 1) for l in open("/proc/%s/status" % pid))
    return "VmRSS %d MiB  VmHWM %d MiB" % (int(fields["VmRSS"].split()[0]) // 1024, int(fields["VmHWM"].split()[0]) // 1024)
step = max(clients, total // 4)
for start in range(0, total, step):
    failed = []
    def run(c):
        conn = http.client.HTTPConnection("127.0.0.1", port)
        for i in range(start + 1 + c, min(total, start + step) + 1, clients):
            conn.request("GET", "/lists/churn?pageSize=5&k=%d" % i)
            r = conn.getresponse(); r.read()
            if r.status != 200: failed.append("status %d at key %d" % (r.status, i)); return
    threads = [threading.Thread(target=run, args=(c,)) for c in range(clients)]
    for t in threads: t.start()
    for t in threads: t.join()
    if failed: sys.exit(failed[0])
    print("after %6d keys: %s" % (min(total, start + step), rss()), flush=True)
PY
  python3 "$WORK/churn.py" $GW "$CHURN" $PID "${CLIENTS:-1}"
  echo "list body:       $(( $(curl -s "http://127.0.0.1:$UP/list/churn" | wc -c) / 1024 )) KiB"
  echo "cache (counted): $(curl -s "http://127.0.0.1:$ADMIN/metrics" | awk '/^folio_(cache_bytes|snapshots|cache_evictions_total) / {printf "%s %s  ", $1, $2}')"
  exit 0
fi
SIZE=$(curl -s "http://127.0.0.1:$UP/list/1" | wc -c)
for i in $(seq 1 200); do
  curl -s -o /dev/null "http://127.0.0.1:$GW/lists/$i?pageSize=5"
  if [ "${SORTED:-0}" = 1 ]; then curl -s -o /dev/null "http://127.0.0.1:$GW/lists/$i?pageSize=5&sort=-name"; fi
done
echo "list body:       $((SIZE / 1024)) KiB each, 200 lists = $((SIZE * 200 / 1048576)) MiB fetched"
echo "after 200 lists: $(rss)"
echo "cache (counted): $(curl -s "http://127.0.0.1:$ADMIN/metrics" | awk '/^folio_(cache_bytes|snapshots|cache_evictions_total) / {printf "%s %s  ", $1, $2}')"
