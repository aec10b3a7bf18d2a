#!/usr/bin/env bash
# Issue 41's figures (BENCHMARKS.md, "Changes and watch streams"), release build, one run:
#
#  1. `since` on a 1,000,000-item list with 1 % of the items changed (mixed removes, adds,
#     replaces and moves): time to the first byte once the new snapshot is stored (curl's
#     time_starttransfer), the first time (both snapshots' ids read then) and again (ids kept),
#     medians of ROUNDS; and the patch's bytes against the changed items' bytes + 40 per operation.
#  2. WATCHERS open watch streams on one replica (a WATCH_ITEMS-item list): resident memory over
#     the idle process, the spread of the event's arrival over the streams after a change (p50,
#     p99, max: from the purge that makes Folio refill at once, and from the moment the new
#     snapshot is stored, which a page request joining the refill marks), and a
#     cached page's throughput (`wrk -t1 -c32`) with the streams open against without.
#
# Usage: scripts/bench-changes.sh [FOLIO_BINARY]   (default .build/release/folio)
# Environment: ITEMS (1000000), ROUNDS (5), WATCHERS (10000), WATCH_ITEMS (10000),
# DURATION (8s), WORK (/tmp/folio-bench-changes), FIGURES (12).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FOLIO=${1:-$ROOT/.build/release/folio}
ITEMS=${ITEMS:-1000000}
ROUNDS=${ROUNDS:-5}
WATCHERS=${WATCHERS:-10000}
WATCH_ITEMS=${WATCH_ITEMS:-10000}
DURATION=${DURATION:-8s}
WORK=${WORK:-/tmp/folio-bench-changes}
FIGURES=${FIGURES:-12}
PORT_UPSTREAM=18490
PORT=18480
ADMIN=18481
[ -x "$FOLIO" ] || { echo "no folio binary at $FOLIO (swift build -c release)" >&2; exit 1; }
for tool in wrk curl python3; do command -v "$tool" >/dev/null || { echo "needs $tool" >&2; exit 1; }; done
ulimit -n "$(ulimit -Hn)" || true

# shellcheck source=scripts/bench-lib.sh
source "$ROOT/scripts/bench-lib.sh"
bench_setup

# v1 and v2 of a list of $2 items: v2 has 1 % changed, a quarter each removed, added, replaced
# (price) and moved; NAME-changed gets the changed items' bytes (every item an operation
# touches: a removed one's old form, the others' new one) and the operation count.
write_lists() {
    python3 - "$WORK/www" "$1" "$2" <<'PY'
import json, random, sys
out, name, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
random.seed(41)
def item(i, price=None):
    return json.dumps({"id": i, "name": "Item %07d" % i, "category": ["tools", "garden", "kitchen", "toys"][i % 4],
                       "price": price if price is not None else round(1 + (i * 37 % 1000) / 10, 2)},
                      separators=(",", ":"))
v1 = [item(i) for i in range(n)]
v2 = list(v1)
quarter = max(1, n // 400)
changed = 0
ops = 0
for k in range(quarter):  # replaces
    i = random.randrange(len(v2)); v2[i] = v2[i].replace('"price":', '"price":9') ; changed += len(v2[i]); ops += 1
for k in range(quarter):  # moves
    i = random.randrange(len(v2)); j = random.randrange(len(v2)); moved = v2.pop(i); v2.insert(j, moved)
    changed += len(moved); ops += 1
for k in range(quarter):  # removes
    changed += len(v2.pop(random.randrange(len(v2)))); ops += 1
for k in range(quarter):  # adds
    added = item(n + k); v2.insert(random.randrange(len(v2)), added); changed += len(added); ops += 1
open("%s/%s-v1.json" % (out, name), "w").write("[" + ",".join(v1) + "]")
open("%s/%s-v2.json" % (out, name), "w").write("[" + ",".join(v2) + "]")
open("%s/%s-changed" % (out, name), "w").write("%d %d\n" % (changed, ops))
PY
}

start_folio() {
    cat >"$WORK/folio.yaml" <<YAML
server: { listen: 127.0.0.1:$PORT, admin: 127.0.0.1:$ADMIN, watch: { maxWatchers: 100000, heartbeat: 15s } }
logging: { level: warning, access: false }
limits: { maxUpstreamBytes: 1GiB }
cache: { ttl: 1h, maxBytes: 2GiB }
routes:
  - name: objects
    path: /objects
    upstream: http://127.0.0.1:$PORT_UPSTREAM/$1.json
    idField: id
YAML
    "$FOLIO" serve --config "$WORK/folio.yaml" >"$WORK/folio.log" 2>&1 &
    FOLIO_PID=$!
    PIDS+=("$FOLIO_PID")
    for _ in $(seq 200); do curl -sf "http://127.0.0.1:$ADMIN/readyz" >/dev/null && return; sleep 0.1; done
    echo "folio did not start" >&2; exit 1
}
stop_folio() { kill "$FOLIO_PID"; wait "$FOLIO_PID" 2>/dev/null || true; }
token() { curl -s "http://127.0.0.1:$PORT/objects?pageSize=1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["paging"]["snapshot"])'; }
# Makes v2 the upstream's list and has Folio refill it now.
swap_to() { cp "$WORK/www/$1-$2.json" "$WORK/www/$1.json"; curl -s -X POST "http://127.0.0.1:$ADMIN/purge?route=objects" >/dev/null; }
rss_kib() { awk '/VmRSS/ {print $2}' "/proc/$FOLIO_PID/status"; }

# The upstream: the lists as static files (Python's threaded server; fills are not what is timed).
(cd "$WORK/www" && exec python3 -m http.server --bind 127.0.0.1 "$PORT_UPSTREAM" >"$WORK/upstream.log" 2>&1) &
PIDS+=("$!")
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$PORT_UPSTREAM/" && break; sleep 0.1; done

if [[ $FIGURES == *1* ]]; then
    write_lists big "$ITEMS"
    read -r changed ops <"$WORK/www/big-changed"
    log "list: $(stat -c %s "$WORK/www/big-v1.json") bytes, $ops operations, $changed changed bytes"
    firsts=(); agains=()
    for round in $(seq "$ROUNDS"); do
        cp "$WORK/www/big-v1.json" "$WORK/www/big.json"
        start_folio big
        old=$(token)
        swap_to big v2
        new=$(token)
        [ "$old" != "$new" ] || { echo "the list did not change" >&2; exit 1; }
        first=$(curl -s -o "$WORK/patch.json" -w '%{time_starttransfer}' "http://127.0.0.1:$PORT/objects?since=$old")
        again=$(curl -s -o /dev/null -w '%{time_starttransfer}' "http://127.0.0.1:$PORT/objects?since=$old")
        firsts+=("$first"); agains+=("$again")
        stop_folio
    done
    python3 - "$WORK/patch.json" "$changed" "$ops" <<'PY'
import json, sys
body = open(sys.argv[1], "rb").read()
patch = json.loads(body)["patch"]
print("patch: %d operations, %d bytes; changed items' bytes + 40 per operation: %d"
      % (len(patch), len(body), int(sys.argv[2]) + 40 * len(patch)))
PY
    echo "since, first time (ids of both snapshots read), TTFB median s: $(printf '%s\n' "${firsts[@]}" | median)"
    echo "since, again (ids kept), TTFB median s:                        $(printf '%s\n' "${agains[@]}" | median)"
fi

if [[ $FIGURES == *2* ]]; then
    write_lists small "$WATCH_ITEMS"
    cp "$WORK/www/small-v1.json" "$WORK/www/small.json"
    start_folio small
    old=$(token)
    curl -s "http://127.0.0.1:$PORT/objects?since=$old" >/dev/null  # the ids are read once, before
    sleep 1
    idle=$(rss_kib)
    page="http://127.0.0.1:$PORT/objects?pageSize=25&offset=100"
    without=$(wrk -t1 -c32 -d"$DURATION" "$page" | awk '/Requests\/sec/ {print $2}')
    python3 - "$PORT" "$old" "$WATCHERS" "$WORK" "$ADMIN" <<'PY' &
import asyncio, sys, time
port, token, count, work, admin = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
arrivals = []
async def watch(ready):
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
    writer.write(("GET /objects?since=%s HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n" % token).encode())
    await writer.drain()
    seen = 0
    tail = b""
    marker = b"event: changes"
    while True:
        chunk = await reader.read(65536)
        if not chunk:
            return
        new = (tail + chunk).count(marker) - tail.count(marker)
        if new > 0:
            if seen == 0:
                ready.append(1)
            if seen + new >= 2 and seen < 2 and len(arrivals) < count:
                arrivals.append(time.monotonic())
            seen += new
        tail = (tail + chunk)[-64:]
async def main():
    ready = []
    tasks = [asyncio.create_task(watch(ready)) for _ in range(count)]
    while len(ready) < count:
        await asyncio.sleep(0.1)
    open(work + "/streams-open", "w").write("1")
    while not __import__("os").path.exists(work + "/changed-at"):
        await asyncio.sleep(0.01)
    while len(arrivals) < count:
        await asyncio.sleep(0.05)
    for name, label in (("changed-at", "the purge"), ("stored-at", "the new snapshot was stored")):
        start = float(open(work + "/" + name).read())
        spread = sorted(a - start for a in arrivals)
        pick = lambda q: spread[min(len(spread) - 1, int(q * len(spread)))] * 1000
        print("events after %s, ms: p50 %.0f, p99 %.0f, max %.0f" % (label, pick(0.5), pick(0.99), spread[-1] * 1000))
    open(work + "/events-done", "w").write("1")
    await asyncio.sleep(3600)
asyncio.run(main())
PY
    CLIENT=$!
    PIDS+=("$CLIENT")
    while [ ! -f "$WORK/streams-open" ]; do sleep 0.2; done
    sleep 2
    open=$(rss_kib)
    with=$(wrk -t1 -c32 -d"$DURATION" "$page" | awk '/Requests\/sec/ {print $2}')
    python3 -c 'import time; print(time.monotonic())' >"$WORK/changed-at.tmp"
    swap_to small v2
    # A page request joins the refill the purge started: it is answered once the new snapshot
    # is stored, the moment the events' delay is measured from.
    curl -s -o /dev/null "http://127.0.0.1:$PORT/objects?pageSize=1"
    python3 -c 'import time; print(time.monotonic())' >"$WORK/stored-at"
    mv "$WORK/changed-at.tmp" "$WORK/changed-at"
    while [ ! -f "$WORK/events-done" ]; do sleep 0.2; done
    streams=$(curl -s "http://127.0.0.1:$ADMIN/metrics" | awk '/^folio_watch_streams/ {print $2}')
    echo "$WATCHERS streams (gauge $streams): resident memory over the idle process $(( (open - idle) / 1024 )) MiB"
    echo "cached page, requests/s: without streams $without, with $with"
    kill "$CLIENT" 2>/dev/null || true
    stop_folio
fi
