#!/usr/bin/env bash
# Issue 19's "no stall beside a fill" figure (BENCHMARKS.md, "No stall beside a fill"): cached pages of one
# route under an open-loop load of RATE requests/s (Benchmarks' `open-loop`: requests due at
# fixed instants, latency from the due instant), first alone, then while another route fills a
# ~100 MB list from nginx (a fill every second of the run: `cache.ttl: 1s` on that route and a
# client asking for it). Reports p50/p99/p99.9/max of each, ROUNDS rounds alternating.
#
# Usage: scripts/bench-stall.sh [FOLIO_BINARY] [OPEN_LOOP_BINARY]
#   defaults: .build/release/folio, Benchmarks/.build/release/open-loop
#   (cd Benchmarks && swift build -c release --product open-loop)
# Environment: RATE (5000), SECONDS_EACH (10), CONNECTIONS (64), ROUNDS (3), ITEMS (1200000),
# WORK (/tmp/folio-bench-stall).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FOLIO=${1:-$ROOT/.build/release/folio}
LOAD=${2:-$ROOT/Benchmarks/.build/release/open-loop}
RATE=${RATE:-5000}
SECONDS_EACH=${SECONDS_EACH:-10}
CONNECTIONS=${CONNECTIONS:-64}
ROUNDS=${ROUNDS:-3}
ITEMS=${ITEMS:-1200000}
WORK=${WORK:-/tmp/folio-bench-stall}
PORT_NGINX=18490
PORT=18480
[ -x "$FOLIO" ] || { echo "no folio binary at $FOLIO (swift build -c release)" >&2; exit 1; }
[ -x "$LOAD" ] || { echo "no open-loop binary at $LOAD" >&2; exit 1; }
for tool in nginx curl python3; do command -v "$tool" >/dev/null || { echo "needs $tool" >&2; exit 1; }; done

# shellcheck source=scripts/bench-lib.sh
source "$ROOT/scripts/bench-lib.sh"
bench_setup
write_item_lists "$WORK/www" 1000 "$ITEMS"
log "large list: $(stat -c %s "$WORK/www/large.json") bytes"
# No validators: every refill downloads and indexes the whole list (a 304 would only renew it).
start_static_nginx $PORT_NGINX "etag off; if_modified_since off;"

cat >"$WORK/folio.yaml" <<YAML
server: { listen: 127.0.0.1:$PORT }
logging: { level: warning, access: false }
limits: { maxUpstreamBytes: 1GiB }
cache: { maxBytes: 2GiB }
routes:
  - name: cached
    path: /cached
    upstream: http://127.0.0.1:$PORT_NGINX/small.json
    cache: { ttl: 1h }
  - name: filling
    path: /filling
    upstream: http://127.0.0.1:$PORT_NGINX/large.json
    cache: { ttl: 1s, staleWhileRevalidate: 0s }
YAML
"$FOLIO" serve --config "$WORK/folio.yaml" >"$WORK/folio.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 200); do curl -s -o /dev/null "http://127.0.0.1:$PORT/cached?pageSize=25" && break; sleep 0.05; done

# Fills of the large list, one after another, for as long as the file $WORK/filling exists.
fill_loop() {
    while [ -f "$WORK/filling" ]; do
        curl -s -o /dev/null "http://127.0.0.1:$PORT/filling?pageSize=25"
        sleep 1.1   # past the 1 s ttl: the next request fills again
    done
}

URL="http://127.0.0.1:$PORT/cached?pageSize=25"
"$LOAD" "$URL" "$RATE" 2 "$CONNECTIONS" >/dev/null   # warm-up
for round in $(seq "$ROUNDS"); do
    log "round $round: alone"
    echo "alone:       $("$LOAD" "$URL" "$RATE" "$SECONDS_EACH" "$CONNECTIONS")"
    log "round $round: beside fills of $(stat -c %s "$WORK/www/large.json") bytes"
    touch "$WORK/filling"
    fill_loop &
    FILLER=$!
    sleep 0.5
    echo "beside fill: $("$LOAD" "$URL" "$RATE" "$SECONDS_EACH" "$CONNECTIONS")"
    rm -f "$WORK/filling"
    wait "$FILLER" 2>/dev/null || true
done
log "done"
