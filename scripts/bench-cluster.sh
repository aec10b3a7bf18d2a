#!/usr/bin/env bash
# Issue 44's figures on a Redis Cluster this script starts itself (3 primaries, 3 replicas on
# loopback, `cluster-node-timeout 1000` as in the tests), side by side in one run
# (BENCHMARKS.md, "Shared store on a Redis Cluster"):
#
#  a. A cached 25-item page served from the local layer: `store: memory` against `store:
#     redis` on the cluster (`wrk -t1 -c32`, rounds alternating; medians of requests/s).
#  b. The first page on a replica that lacks the list, loaded from the cluster (another
#     replica filled it): p50 and p99 of SAMPLES fresh replicas.
#  c. 4 replicas × 20 lists, cold, every replica asking for every list twice at once (the
#     upstream taking about 250 ms a list): upstream fetches counted in nginx's access log.
#  d. A primary killed during a LOAD-long load on 2 replicas (20 lists, `ttl: 1s`, so fills
#     and loads keep going to the cluster): failed requests (wrk's non-2xx and socket
#     errors), p99 of a prober's requests from the kill until 5 s after the promotion, and
#     the seconds from the promotion to each replica's `shared store shard back` line.
#
# Usage: scripts/bench-cluster.sh [FOLIO_BINARY]   (default .build/release/folio)
# Environment: ROUNDS (3), DURATION (10s), SAMPLES (30), LOAD_ITEMS (10000: about 0.8 MB),
# LOAD (60: seconds), WORK (/tmp/folio-bench-cluster), FIGURES (abcd: which to measure).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FOLIO=${1:-$ROOT/.build/release/folio}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
SAMPLES=${SAMPLES:-30}
LOAD_ITEMS=${LOAD_ITEMS:-10000}
LOAD=${LOAD:-60}
WORK=${WORK:-/tmp/folio-bench-cluster}
FIGURES=${FIGURES:-abcd}
PORT_NGINX=18390
NODES=(17101 17102 17103 17104 17105 17106)
BASE=18380
[ -x "$FOLIO" ] || { echo "no folio binary at $FOLIO (swift build -c release --product folio)" >&2; exit 1; }
for tool in wrk nginx curl python3 redis-server redis-cli; do
    command -v "$tool" >/dev/null || { echo "needs $tool" >&2; exit 1; }
done

# shellcheck source=scripts/bench-lib.sh
source "$ROOT/scripts/bench-lib.sh"
bench_setup
cleanup() {
    for port in "${NODES[@]}"; do redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true; done
    bench_cleanup
}
trap cleanup EXIT

write_item_lists "$WORK/www" 25 "$LOAD_ITEMS"
python3 - "$WORK/www" <<'PY'
import json, sys
for n in range(1, 21):
    items = [{"id": i, "name": "List %d item %d" % (n, i), "price": i % 97} for i in range(2000)]
    open("%s/list-%d.json" % (sys.argv[1], n), "w").write(json.dumps(items, separators=(",", ":")))
PY

# A slow upstream for figure c: each list (about 90 KB) sent at 360 KB/s.
start_counting_nginx $PORT_NGINX 360k

log "starting a 3+3 Redis Cluster on ${NODES[*]}"
for port in "${NODES[@]}"; do
    redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes \
        --cluster-enabled yes --cluster-node-timeout 1000 --repl-diskless-sync-delay 0 \
        --cluster-replica-validity-factor 0 --cluster-config-file "$WORK/nodes-$port.conf" --dir "$WORK" \
        --logfile "$WORK/redis-$port.log" >/dev/null
done
for port in "${NODES[@]}"; do
    for _ in $(seq 100); do redis-cli -p "$port" ping >/dev/null 2>&1 && break; sleep 0.05; done
done
redis-cli --cluster create $(printf '127.0.0.1:%s ' "${NODES[@]}") --cluster-replicas 1 --cluster-yes >"$WORK/create.log"
cluster_ok() {
    for port in "$@"; do
        redis-cli -p "$port" cluster info 2>/dev/null | grep -q 'cluster_state:ok' || return 1
    done
}
for _ in $(seq 300); do cluster_ok "${NODES[@]}" && break; sleep 0.1; done
cluster_ok "${NODES[@]}" || { echo "the cluster did not form" >&2; exit 1; }
SEEDS=$(printf 'redis://127.0.0.1:%s, ' "${NODES[@]:0:3}")
SEEDS="[${SEEDS%, }]"

# start_folio PORT STORE TTL ROUTES LOCAL: a replica with ROUTES (YAML list items); waits until it listens.
start_folio() {
    local port=$1 store=$2 ttl=$3 routes=$4 local=${5:-1GiB}
    cat >"$WORK/folio-$port.yaml" <<YAML
server: { listen: 127.0.0.1:$port, admin: "127.0.0.1:$((port + 100))" }
logging: { level: notice, access: false }
cache:
  ttl: $ttl
  maxBytes: 1GiB
  store: $store
  redis: { cluster: $SEEDS, localMaxBytes: $local, commandTimeout: 2s }
routes:
$routes
YAML
    "$FOLIO" serve --config "$WORK/folio-$port.yaml" >"$WORK/folio-$port.log" 2>&1 &
    PIDS+=($!)
    for _ in $(seq 200); do curl -s -o /dev/null "http://127.0.0.1:$port/livez-probe" && break; sleep 0.05; done
}
one_route() { printf '  - { name: objects, path: /objects, upstream: "http://127.0.0.1:%s%s" }\n' $PORT_NGINX "$1"; }
twenty_routes() {
    for n in $(seq 20); do
        printf '  - { name: l%d, path: /l%d, upstream: "http://127.0.0.1:%s%s/list-%d.json" }\n' \
            "$n" "$n" $PORT_NGINX "$1" "$n"
    done
}
percentile() { sort -n | awk -v p="$1" '{a[NR]=$1} END {i=int((NR*p+99)/100); if (i<1) i=1; print a[i]}'; }

if [[ $FIGURES == *a* ]]; then
    log "a. cached page, local layer: memory against redis on the cluster"
    start_folio $BASE memory 1h "$(one_route /small.json)"
    start_folio $((BASE + 1)) redis 1h "$(one_route /small.json)"
    read -r memory redis < <(cached_page_medians $BASE $((BASE + 1)))
    echo "a. cached page req/s (median of $ROUNDS): memory $memory, redis cluster $redis, ratio $(python3 -c "print(round($redis/$memory, 3))")"
    stop_folios
fi

if [[ $FIGURES == *b* ]]; then
    log "b. first page on a replica that lacks the list, loaded from the cluster ($LOAD_ITEMS items)"
    start_folio $BASE redis 1h "$(one_route /large.json)"
    first_page_ms $BASE >/dev/null
    sleep 1 # the filler's copy to the cluster is written after it answered
    FILLER=("${PIDS[@]}")
    LOADS=()
    for sample in $(seq "$SAMPLES"); do
        start_folio $((BASE + 1)) redis 1h "$(one_route /large.json)"
        LOADS+=("$(first_page_ms $((BASE + 1)))")
        kill "${PIDS[-1]}"
        wait "${PIDS[-1]}" 2>/dev/null || true
        PIDS=("${FILLER[@]}")
    done
    fetches=$(grep -c 'GET /large.json' "$WORK/access.log" || true)
    echo "b. first page loaded from the cluster, ms over $SAMPLES fresh replicas: p50 $(printf '%s\n' "${LOADS[@]}" | percentile 50), p99 $(printf '%s\n' "${LOADS[@]}" | percentile 99) (upstream fetches: $fetches)"
    stop_folios
fi

if [[ $FIGURES == *c* ]]; then
    log "c. 4 replicas x 20 lists, cold"
    redis-cli -c -p "${NODES[0]}" ping >/dev/null
    for i in 0 1 2 3; do start_folio $((BASE + i)) redis 1h "$(twenty_routes /slow)"; done
    before=$(grep -c 'GET /slow/list-' "$WORK/access.log" || true)
    CURLS=()
    for i in 0 1 2 3; do
        for n in $(seq 20); do
            for _ in 1 2; do
                curl -s -o /dev/null "http://127.0.0.1:$((BASE + i))/l$n?pageSize=5" &
                CURLS+=($!)
            done
        done
    done
    wait "${CURLS[@]}"
    sleep 0.5
    after=$(grep -c 'GET /slow/list-' "$WORK/access.log" || true)
    echo "c. upstream fetches for 4 replicas x 20 lists cold (160 requests at once): $((after - before))"
    stop_folios
fi

if [[ $FIGURES == *d* ]]; then
    log "d. a primary killed during a ${LOAD} s load"
    start_folio $BASE redis 1s "$(twenty_routes '')"
    start_folio $((BASE + 1)) redis 1s "$(twenty_routes '')"
    cat >"$WORK/rotate.lua" <<'LUA'
counter = 0
request = function()
    counter = counter + 1
    return wrk.format("GET", "/l" .. (counter % 20 + 1) .. "?pageSize=25")
end
LUA
    WRKS=()
    for port in $BASE $((BASE + 1)); do
        wrk -t1 -c8 -d"${LOAD}s" --latency -s "$WORK/rotate.lua" "http://127.0.0.1:$port" >"$WORK/wrk-$port.txt" &
        WRKS+=($!)
    done
    # A prober: one request every 50 ms to each replica in turn, with its time and status.
    (
        end=$(($(date +%s) + LOAD))
        n=0
        while [ "$(date +%s)" -lt $end ]; do
            n=$((n + 1))
            port=$((BASE + n % 2))
            printf '%s %s\n' "$(date +%s%3N)" \
                "$(curl -s -o /dev/null -w '%{http_code} %{time_total}' "http://127.0.0.1:$port/l$((n % 20 + 1))?pageSize=25")"
            sleep 0.05
        done >"$WORK/probe.txt"
    ) &
    PROBER=$!
    sleep $((LOAD / 3))
    victim=""
    for port in "${NODES[@]}"; do
        if redis-cli -p "$port" role | head -1 | grep -q master; then victim=$port; break; fi
    done
    victim_id=$(redis-cli -p "$victim" cluster myid)
    replica=$(redis-cli -p "$victim" cluster nodes | awk -v id="$victim_id" '$4 == id {split($2, a, "[:@]"); print a[2]}')
    killed=$(date +%s%3N)
    kill -9 "$(redis-cli -p "$victim" info server | awk -F: '/^process_id/ {print $2}' | tr -d '\r')"
    log "killed primary $victim at $killed; its replica is $replica"
    promoted=""
    for _ in $(seq 600); do
        if redis-cli -p "$replica" role 2>/dev/null | head -1 | grep -q master; then promoted=$(date +%s%3N); break; fi
        sleep 0.05
    done
    log "replica $replica promoted at $promoted ($((promoted - killed)) ms after the kill)"
    wait "${WRKS[@]}" || true
    wait $PROBER || true
    failed=0
    for port in $BASE $((BASE + 1)); do
        non2xx=$(awk '/Non-2xx/ {print $NF}' "$WORK/wrk-$port.txt")
        socket=$(awk -F'[ ,]+' '/Socket errors/ {print $4 + $6 + $8 + $10}' "$WORK/wrk-$port.txt")
        total=$(awk '/requests in/ {print $1}' "$WORK/wrk-$port.txt")
        p99=$(awk '$1 == "99%" {print $2}' "$WORK/wrk-$port.txt")
        log "replica $port: $total requests, non-2xx ${non2xx:-0}, socket errors ${socket:-0}, p99 over the whole load $p99"
        failed=$((failed + ${non2xx:-0} + ${socket:-0}))
    done
    probe_failed=$(awk '$2 != 200' "$WORK/probe.txt" | wc -l)
    window=$(awk -v from="$killed" -v to="$((promoted + 5000))" '$1 >= from && $1 <= to {printf "%.1f\n", $3 * 1000}' "$WORK/probe.txt")
    back=$(python3 - "$promoted" "$WORK/folio-$BASE.log" "$WORK/folio-$((BASE + 1)).log" <<'PY'
import datetime, json, sys
promoted = int(sys.argv[1]) / 1000
seconds = []
for path in sys.argv[2:]:
    for line in open(path):
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if entry.get("message") == "shared store shard back":
            stamp = entry.get("timestamp") or entry.get("time") or entry.get("ts")
            at = datetime.datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
            seconds.append("%.2f" % (at - promoted))
            break
    else:
        seconds.append("never")
print(" ".join(seconds))
PY
)
    lost_lines=$(grep -c '"shared store shard lost"' "$WORK/folio-$BASE.log" "$WORK/folio-$((BASE + 1)).log" | tr '\n' ' ')
    echo "d. primary killed under load: failed requests $failed (prober: $probe_failed of $(wc -l <"$WORK/probe.txt")); promotion $((promoted - killed)) ms after the kill; prober p99 from the kill to 5 s after the promotion $(echo "$window" | percentile 99) ms (p50 $(echo "$window" | percentile 50), $(echo "$window" | wc -l) requests); sharing back after the promotion, s per replica: $back; lost lines per replica log: $lost_lines"
    stop_folios
fi
