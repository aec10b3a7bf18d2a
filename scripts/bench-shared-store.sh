#!/usr/bin/env bash
# Issue 14's figures, side by side in one run on this machine (BENCHMARKS.md, "Shared store"):
#
#  1. A cached 25-item page served from the local layer: `store: memory` vs `store: redis`
#     (`wrk -t1 -c32`, rounds alternating; medians of requests/s).
#  2. The first page on a replica that did not fill, loading a ~100 MB list from Redis, vs a
#     cold upstream fill of the same list (nginx serving it as a static file); medians of
#     ROUNDS cold starts each.
#  3. Upstream fetches for 4 replicas on one Redis under concurrent cold load (32 requests
#     spread over them, the upstream taking about 250 ms): counted in nginx's access log.
#  4. How fast other replicas hear: a waiter on B answers how long after the filler A did
#     (pub/sub wakes it; without an event it would look again within 200 ms), and how long
#     after a purge on A replica B stops serving the dropped list. Medians of ROUNDS.
#
# Usage: scripts/bench-shared-store.sh [FOLIO_BINARY]   (default .build/release/folio)
# Environment: ROUNDS (3), DURATION (10s), ITEMS (1200000: about 100 MB), WORK (/tmp/folio-bench-shared),
# FIGURES (1234: which of the four to measure).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FOLIO=${1:-$ROOT/.build/release/folio}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
ITEMS=${ITEMS:-1200000}
WORK=${WORK:-/tmp/folio-bench-shared}
FIGURES=${FIGURES:-1234}
PORT_NGINX=18290
PORT_REDIS=18279
BASE=18280
[ -x "$FOLIO" ] || { echo "no folio binary at $FOLIO (swift build -c release)" >&2; exit 1; }
for tool in wrk nginx curl python3 redis-server redis-cli; do
    command -v "$tool" >/dev/null || { echo "needs $tool" >&2; exit 1; }
done

# shellcheck source=scripts/bench-lib.sh
source "$ROOT/scripts/bench-lib.sh"
bench_setup
cleanup() {
    redis-cli -p $PORT_REDIS shutdown nosave >/dev/null 2>&1 || true
    bench_cleanup
}
trap cleanup EXIT

write_item_lists "$WORK/www" 10000 "$ITEMS"
log "large list: $(stat -c %s "$WORK/www/large.json") bytes"

# A slow upstream for figure 3: the 1 MB list sent at 4 MB/s (about 250 ms).
start_counting_nginx $PORT_NGINX 4m

redis-server --port $PORT_REDIS --bind 127.0.0.1 --save "" --appendonly no --daemonize yes \
    --logfile "$WORK/redis.log" >/dev/null
for _ in $(seq 100); do redis-cli -p $PORT_REDIS ping >/dev/null 2>&1 && break; sleep 0.05; done

# start_folio PORT STORE UPSTREAM_PATH: a replica; waits until it listens.
start_folio() {
    local port=$1 store=$2 path=$3
    cat >"$WORK/folio-$port.yaml" <<YAML
server: { listen: 127.0.0.1:$port, admin: "127.0.0.1:$((port + 100))" }
logging: { level: warning, access: false }
limits: { maxUpstreamBytes: 1GiB }
cache:
  ttl: 1h
  maxBytes: 1GiB
  store: $store
  redis: { url: "redis://127.0.0.1:$PORT_REDIS", localMaxBytes: 1GiB, commandTimeout: 10s }
routes:
  - name: objects
    path: /objects
    upstream: http://127.0.0.1:$PORT_NGINX$path
YAML
    "$FOLIO" serve --config "$WORK/folio-$port.yaml" >"$WORK/folio-$port.log" 2>&1 &
    PIDS+=($!)
    for _ in $(seq 200); do curl -s -o /dev/null "http://127.0.0.1:$port/livez-probe" && break; sleep 0.05; done
}

if [[ $FIGURES == *1* ]]; then
log "1. cached page, local layer: memory vs redis"
start_folio $BASE memory /small.json
start_folio $((BASE + 1)) redis /small.json
read -r memory redis < <(cached_page_medians $BASE $((BASE + 1)))
echo "cached page req/s (median of $ROUNDS): memory $memory, redis $redis, ratio $(python3 -c "print(round($redis/$memory, 3))")"
stop_folios
fi

if [[ $FIGURES == *2* ]]; then
log "2. first page of the large list: cold upstream fill vs load from Redis"
MEMORY=(); COLD=(); LOAD=()
for round in $(seq "$ROUNDS"); do
    redis-cli -p $PORT_REDIS flushall >/dev/null
    start_folio $((BASE + 2)) memory /large.json
    MEMORY+=("$(first_page_ms $((BASE + 2)))")
    start_folio $BASE redis /large.json
    COLD+=("$(first_page_ms $BASE)")
    # The filler answered before its copy to Redis is written: wait for the copy, so this
    # measures a load, not a wait for the filler.
    for _ in $(seq 600); do
        [ -n "$(redis-cli -p $PORT_REDIS --scan --pattern 'folio:route:*:newest:*')" ] && break
        sleep 0.05
    done
    start_folio $((BASE + 1)) redis /large.json
    LOAD+=("$(first_page_ms $((BASE + 1)))")
    log "round $round: cold fill ${MEMORY[-1]} ms (memory), ${COLD[-1]} ms (redis, the filler), load from Redis ${LOAD[-1]} ms"
    stop_folios
done
echo "first page, ms (median of $ROUNDS): cold upstream fill $(printf '%s\n' "${MEMORY[@]}" | median) with store: memory, $(printf '%s\n' "${COLD[@]}" | median) with store: redis (the filler); load from Redis on another replica $(printf '%s\n' "${LOAD[@]}" | median)"

fi

if [[ $FIGURES == *3* ]]; then
log "3. upstream fetches for 4 replicas under concurrent cold load"
redis-cli -p $PORT_REDIS flushall >/dev/null
for i in 0 1 2 3; do start_folio $((BASE + i)) redis /slow/small.json; done
before=$(grep -c 'GET /slow/small.json' "$WORK/access.log" || true)
CURLS=()
for n in $(seq 32); do
    curl -s -o /dev/null "http://127.0.0.1:$((BASE + n % 4))/objects?pageSize=5" &
    CURLS+=($!)
done
wait "${CURLS[@]}"
sleep 0.5
after=$(grep -c 'GET /slow/small.json' "$WORK/access.log" || true)
echo "upstream fetches for 32 concurrent cold requests on 4 replicas: $((after - before))"
stop_folios
fi

if [[ $FIGURES == *4* ]]; then
log "4. waiter wake-up and drop propagation between two replicas"
now_ms() { date +%s%3N; }
purge() { curl -s -X POST -o /dev/null "http://127.0.0.1:$(($1 + 100))/purge?route=objects"; }
start_folio $BASE redis /slow/small.json
start_folio $((BASE + 1)) redis /slow/small.json
WAKE=()
for round in $(seq "$ROUNDS"); do
    purge $BASE; sleep 0.3
    # A fills (about 250 ms); B asks 50 ms later and waits for A's list.
    ( curl -s -o /dev/null "http://127.0.0.1:$BASE/objects?pageSize=5"; now_ms >"$WORK/a.done" ) &
    a=$!
    sleep 0.05
    curl -s -o /dev/null "http://127.0.0.1:$((BASE + 1))/objects?pageSize=5"
    b_done=$(now_ms)
    wait $a
    WAKE+=("$((b_done - $(cat "$WORK/a.done")))")
    log "round $round: B answered ${WAKE[-1]} ms after A"
done
stop_folios
# A fast upstream now: the time until B answers from a new fill includes that fill (~10 ms).
start_folio $BASE redis /small.json
start_folio $((BASE + 1)) redis /small.json
DROP=()
for round in $(seq "$ROUNDS"); do
    curl -s -o /dev/null "http://127.0.0.1:$BASE/objects?pageSize=5"
    curl -s -o /dev/null "http://127.0.0.1:$((BASE + 1))/objects?pageSize=5"
    start=$(now_ms)
    purge $BASE
    until curl -s -D - -o /dev/null "http://127.0.0.1:$((BASE + 1))/objects?pageSize=5" | grep -qi '^cache-status:.*fwd='; do
        sleep 0.002
    done
    DROP+=("$(($(now_ms) - start))")
    log "round $round: B stopped serving the dropped list after ${DROP[-1]} ms"
done
echo "B after A's fill, ms (median of $ROUNDS): $(printf '%s\n' "${WAKE[@]}" | median); drop seen by B after, ms: $(printf '%s\n' "${DROP[@]}" | median)"
stop_folios
fi
