#!/usr/bin/env bash
# Issue 15's figures, side by side in one run on this machine (BENCHMARKS.md, "Compression"):
#
#  1. Throughput of the same cached page (25 items, then 500; SIZES overrides) (`wrk -t1 -c32`, rounds alternating):
#     Folio identity, Folio `Accept-Encoding: br`, Folio `gzip`, and nginx serving the identity
#     page's bytes as a static file with `gzip on` (dynamic, default level 1) to `gzip` requests.
#     Medians of requests/s and p99, and the ratios.
#  2. Compressed sizes of a 25-, 100- and 500-item page per coding, as Folio sends them.
#
# Usage: scripts/bench-compress.sh [FOLIO_BINARY]   (default .build/release/folio)
# Environment: ROUNDS (3), DURATION (10s), WORK (/tmp/folio-bench-compress).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FOLIO=${1:-$ROOT/.build/release/folio}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
WORK=${WORK:-/tmp/folio-bench-compress}
PORT_NGINX=18190
PORT_FOLIO=18180
[ -x "$FOLIO" ] || { echo "no folio binary at $FOLIO (swift build -c release)" >&2; exit 1; }
for tool in wrk nginx curl python3; do command -v "$tool" >/dev/null || { echo "needs $tool" >&2; exit 1; }; done

# shellcheck source=scripts/bench-lib.sh
source "$ROOT/scripts/bench-lib.sh"
bench_setup

# A 10,000-item list of about 100 bytes an item (the shape of Benchmarks/Sources/ListData).
python3 - "$WORK/www/list.json" <<'PY'
import json, sys
items = [json.dumps({"id": i, "name": "Item %06d" % i, "category": ["tools", "garden", "kitchen", "toys"][i % 4],
                     "price": round(1 + (i * 37 % 1000) / 10, 2), "inStock": i % 3 != 0}, separators=(",", ":"))
         for i in range(10000)]
open(sys.argv[1], "w").write("[" + ",".join(items) + "]")
PY

cat >"$WORK/nginx.conf" <<NGINX
worker_processes auto;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events { worker_connections 4096; }
http {
    access_log off;
    keepalive_requests 100000000;
    gzip on;
    gzip_types application/json;
    gzip_min_length 1024;
$(nginx_http_common)
    server { listen 127.0.0.1:$PORT_NGINX; root $WORK/www; }
}
NGINX
nginx -c "$WORK/nginx.conf" -p "$WORK" -g 'daemon on;' 2>/dev/null

cat >"$WORK/folio.yaml" <<YAML
server:
  listen: 127.0.0.1:$PORT_FOLIO
  admin: null
  compression: { encodings: [br, gzip, zstd] }
logging: { level: warning, access: false }   # nginx logs nothing either
cache: { ttl: 1h }
routes:
  - name: objects
    path: /objects
    upstream: http://127.0.0.1:$PORT_NGINX/list.json
YAML
"$FOLIO" serve --config "$WORK/folio.yaml" >"$WORK/folio.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 200); do curl -sf -o /dev/null "http://127.0.0.1:$PORT_FOLIO/objects?pageSize=1" && break; sleep 0.05; done

to_ms() { awk -v v="$1" 'BEGIN { n = v + 0; if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n = n; else if (v ~ /s$/) n *= 1000; printf "%.3f", n }'; }
run() { # NAME URL ENCODING
    local out
    out=$(wrk -t1 -c32 -d"$DURATION" --latency -H "Accept-Encoding: $3" "$2")
    grep -q 'Non-2xx' <<<"$out" && { echo "$1: non-2xx" >&2; exit 1; }
    echo "$1 $(awk '/^Requests\/sec:/ {print $2}' <<<"$out") $(to_ms "$(awk '$1 == "99%" {print $2}' <<<"$out")")" >>"$WORK/wrk.txt"
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
med() { awk -v n="$1" -v c="$2" '$1 == n {print $c}' "$WORK/wrk.txt" | median; }
bench_page() { # ITEMS
URL="/objects?pageSize=$1"
curl -s "http://127.0.0.1:$PORT_FOLIO$URL" -o "$WORK/www/page.json"
# Warm every representation once (each is compressed once, then kept).
for coding in identity br gzip zstd; do curl -s -H "Accept-Encoding: $coding" -o /dev/null "http://127.0.0.1:$PORT_FOLIO$URL"; done
[ "$(curl -s --compressed -H 'Accept-Encoding: gzip' "http://127.0.0.1:$PORT_NGINX/page.json" | cmp - "$WORK/www/page.json" && echo same)" = same ] \
    || { echo "nginx does not serve the page's bytes" >&2; exit 1; }
: >"$WORK/wrk.txt"
for round in $(seq "$ROUNDS"); do
    log "$1 items, round $round"
    run folio-identity "http://127.0.0.1:$PORT_FOLIO$URL" identity
    run folio-br "http://127.0.0.1:$PORT_FOLIO$URL" br
    run folio-gzip "http://127.0.0.1:$PORT_FOLIO$URL" gzip
    run nginx-gzip "http://127.0.0.1:$PORT_NGINX/page.json" gzip
done
echo
echo "throughput, one cached $1-item page ($(stat -c %s "$WORK/www/page.json") bytes identity), wrk -t1 -c32 -d$DURATION, $ROUNDS rounds, medians"
printf '%-16s %12s %10s\n' server req/s p99-ms
for name in folio-identity folio-br folio-gzip nginx-gzip; do printf '%-16s %12s %10s\n' "$name" "$(med $name 2)" "$(med $name 3)"; done
awk -v i="$(med folio-identity 2)" -v b="$(med folio-br 2)" -v g="$(med folio-gzip 2)" -v n="$(med nginx-gzip 2)" 'BEGIN {
    printf "ratios: br/identity %.2f  gzip/identity %.2f  folio-br/nginx-gzip %.2f  folio-gzip/nginx-gzip %.2f\n", b/i, g/i, b/n, g/n }'
}
for items in ${SIZES:-25 500}; do bench_page "$items"; done

echo
echo "compressed sizes as Folio sends them (bytes)"
printf '%-7s %9s %9s %9s %9s\n' items identity br gzip zstd
for n in 25 100 500; do
    row="$n"
    for coding in identity br gzip zstd; do
        row="$row $(curl -s -H "Accept-Encoding: $coding" -o /dev/null -w '%{size_download}' "http://127.0.0.1:$PORT_FOLIO/objects?pageSize=$n")"
    done
    printf '%-7s %9s %9s %9s %9s\n' $row
done
