#!/usr/bin/env bash
# Gateway benchmarks of issue 6, side by side on one machine (see BENCHMARKS.md).
#
#  1. Throughput of one cached 25-item page (~2.6 KB) of a 10,000-item list, `wrk -t1 -c32`,
#     alternating A B C D rounds: Folio with the default logging (access log on), Folio with
#     `logging.access: false`, a minimal Hummingbird handler returning the same bytes from
#     memory (the limit of our stack), nginx serving the same bytes as a static file (the limit
#     of the field). Medians of requests/s, p50 and p99, and the ratios.
#  2. Cold fill: time from a client's first request to its first page for a 100 MB,
#     1,000,000-item upstream array (nginx static file, Content-Length), against an
#     AsyncHTTPClient program that streams the same body and discards it, and curl
#     (informational); Folio's RSS growth at the peak and at rest against the body size, for a
#     Content-Length upstream and (beside) a chunked one.
#
# Usage: scripts/bench-gateway.sh [throughput|fill|all]   (default: all)
# Environment: ROUNDS (3), DURATION (10s), FILL_ROUNDS (5), WORK (/tmp/folio-bench),
#              BUILD=0 to use existing release builds, KEEP=1 to keep $WORK.
set -euo pipefail

MODE=${1:-all}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
FILL_ROUNDS=${FILL_ROUNDS:-5}
WORK=${WORK:-/tmp/folio-bench}
BUILD=${BUILD:-1}
ROOT=$(cd "$(dirname "$0")/.." && pwd)

PORT_NGINX=18090
PORT_FOLIO=18080
PORT_FOLIO_QUIET=18081
PORT_SAME=18083
PORT_FILL=18084
PORT_CHUNKED=18085

log() { printf '== %s\n' "$*" >&2; }

# --- tools -------------------------------------------------------------------------------------
missing=()
for tool in wrk nginx curl; do
    command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
if ((${#missing[@]})); then
    log "installing ${missing[*]}"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get install -y "${missing[@]}" >/dev/null
fi
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

# --- builds ------------------------------------------------------------------------------------
if [ "$BUILD" = 1 ]; then
    log "release build of folio"
    (cd "$ROOT" && swift build -c release --product folio)
    for product in SameBytesServer StreamDiscard make-list; do
        log "release build of $product"
        (cd "$ROOT/Benchmarks" && swift build -c release --product "$product")
    done
fi
FOLIO="$ROOT/.build/release/folio"
BENCH_BIN="$ROOT/Benchmarks/.build/release"
for binary in "$FOLIO" "$BENCH_BIN/SameBytesServer" "$BENCH_BIN/StreamDiscard" "$BENCH_BIN/make-list"; do
    [ -x "$binary" ] || { echo "missing $binary (run without BUILD=0)" >&2; exit 1; }
done

# --- processes ---------------------------------------------------------------------------------
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    if [ -f "$WORK/nginx.pid" ]; then kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true; fi
    wait 2>/dev/null || true
    [ "${KEEP:-0}" = 1 ] || rm -rf "$WORK/www" "$WORK"/*.log
}
trap cleanup EXIT

mkdir -p "$WORK/www" "$WORK/tmp"
chmod 755 "$WORK" "$WORK/www"

wait_http() { # URL: until it answers anything
    for _ in $(seq 1 200); do
        curl -s -o /dev/null "$1" && return 0
        sleep 0.05
    done
    echo "no answer from $1" >&2
    exit 1
}

start() { # LOG COMMAND...: starts in the background, pid in $STARTED
    local logfile=$1; shift
    "$@" >"$logfile" 2>&1 &
    STARTED=$!
    PIDS+=("$STARTED")
}

stop() { # PID
    kill "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

# --- data and upstream -------------------------------------------------------------------------
[ -f "$WORK/www/list-10k.json" ] || "$BENCH_BIN/make-list" 10000 "$WORK/www/list-10k.json" >&2
[ -f "$WORK/www/list-1m.json" ] || "$BENCH_BIN/make-list" 1000000 "$WORK/www/list-1m.json" >&2
BODY_BYTES=$(stat -c %s "$WORK/www/list-1m.json")

cat >"$WORK/nginx.conf" <<EOF
worker_processes auto;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events { worker_connections 4096; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 100000000;
    keepalive_timeout 65;
    types { application/json json; }
    default_type application/json;
    client_body_temp_path $WORK/tmp/body;
    proxy_temp_path $WORK/tmp/proxy;
    fastcgi_temp_path $WORK/tmp/fastcgi;
    uwsgi_temp_path $WORK/tmp/uwsgi;
    scgi_temp_path $WORK/tmp/scgi;
    server {
        listen 127.0.0.1:$PORT_NGINX;
        root $WORK/www;
    }
}
EOF
log "nginx on :$PORT_NGINX"
"$NGINX" -c "$WORK/nginx.conf" -p "$WORK" -g 'daemon on;' 2>/dev/null
wait_http "http://127.0.0.1:$PORT_NGINX/list-10k.json"

folio_config() { # FILE PORT ACCESS(true|false) ROUTES_YAML
    cat >"$1" <<EOF
server:
  listen: 127.0.0.1:$2
  admin: null
logging:
  level: info
  access: $3
cache:
  ttl: 1h
$4
EOF
}

# --- 1. throughput -----------------------------------------------------------------------------
to_ms() { # wrk latency (e.g. 812.00us, 1.20ms, 1.01s) in ms
    awk -v v="$1" 'BEGIN {
        n = v + 0
        if (v ~ /us$/) n /= 1000; else if (v ~ /ms$/) n = n; else if (v ~ /s$/) n *= 1000
        printf "%.3f", n }'
}

run_wrk() { # NAME URL: appends "name rps p50ms p99ms" to $WORK/wrk.txt
    local out
    out=$(wrk -t1 -c32 -d"$DURATION" --latency "$2")
    if grep -q 'Non-2xx' <<<"$out"; then
        echo "$1: non-2xx answers" >&2
        echo "$out" >&2
        exit 1
    fi
    local rps p50 p99
    rps=$(awk '/^Requests\/sec:/ { print $2 }' <<<"$out")
    p50=$(to_ms "$(awk '$1 == "50%" { print $2 }' <<<"$out")")
    p99=$(to_ms "$(awk '$1 == "99%" { print $2 }' <<<"$out")")
    echo "$1 $rps $p50 $p99" | tee -a "$WORK/wrk.txt" >&2
}

median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

throughput() {
    local routes="routes:
  - name: objects
    path: /objects
    upstream: http://127.0.0.1:$PORT_NGINX/list-10k.json"
    folio_config "$WORK/folio-access.yaml" $PORT_FOLIO true "$routes"
    folio_config "$WORK/folio-quiet.yaml" $PORT_FOLIO_QUIET false "$routes"
    start "$WORK/folio-access.log" "$FOLIO" serve --config "$WORK/folio-access.yaml"
    local folio_pid=$STARTED
    start "$WORK/folio-quiet.log" "$FOLIO" serve --config "$WORK/folio-quiet.yaml"
    local quiet_pid=$STARTED
    local url="/objects?pageSize=25"
    wait_http "http://127.0.0.1:$PORT_FOLIO$url"
    wait_http "http://127.0.0.1:$PORT_FOLIO_QUIET$url"
    # The page both references serve: Folio's own answer, byte for byte.
    curl -sf -o "$WORK/www/page.json" "http://127.0.0.1:$PORT_FOLIO$url"
    log "page: $(stat -c %s "$WORK/www/page.json") bytes"
    start "$WORK/same.log" "$BENCH_BIN/SameBytesServer" "$WORK/www/page.json" $PORT_SAME
    local same_pid=$STARTED
    wait_http "http://127.0.0.1:$PORT_SAME/page"
    for check in "http://127.0.0.1:$PORT_SAME/page" "http://127.0.0.1:$PORT_NGINX/page.json" \
        "http://127.0.0.1:$PORT_FOLIO_QUIET$url"; do
        cmp -s "$WORK/www/page.json" <(curl -sf "$check") || { echo "$check serves other bytes" >&2; exit 1; }
    done

    : >"$WORK/wrk.txt"
    for round in $(seq 1 "$ROUNDS"); do
        log "throughput round $round/$ROUNDS"
        run_wrk folio "http://127.0.0.1:$PORT_FOLIO$url"
        run_wrk folio-no-access-log "http://127.0.0.1:$PORT_FOLIO_QUIET$url"
        run_wrk hummingbird "http://127.0.0.1:$PORT_SAME/page"
        run_wrk nginx "http://127.0.0.1:$PORT_NGINX/page.json"
        : >"$WORK/folio-access.log"  # keep the disk out of it
    done
    stop $folio_pid; stop $quiet_pid; stop $same_pid

    echo
    echo "### Throughput: one cached 25-item page ($(stat -c %s "$WORK/www/page.json") bytes), wrk -t1 -c32 -d$DURATION, medians of $ROUNDS rounds"
    echo
    echo "| server | req/s | p50 ms | p99 ms |"
    echo "|---|---:|---:|---:|"
    for name in folio folio-no-access-log hummingbird nginx; do
        local rps p50 p99
        rps=$(awk -v n=$name '$1 == n { print $2 }' "$WORK/wrk.txt" | median)
        p50=$(awk -v n=$name '$1 == n { print $3 }' "$WORK/wrk.txt" | median)
        p99=$(awk -v n=$name '$1 == n { print $4 }' "$WORK/wrk.txt" | median)
        printf '| %s | %.0f | %s | %s |\n' "$name" "$rps" "$p50" "$p99"
        eval "RPS_${name//-/_}=$rps"
    done
    echo
    awk -v f="$RPS_folio" -v q="$RPS_folio_no_access_log" -v h="$RPS_hummingbird" -v n="$RPS_nginx" 'BEGIN {
        printf "ratios: folio/hummingbird %.2f (goal >= 0.9), folio/nginx %.2f (goal >= 0.6); ", f / h, f / n
        printf "without access log: /hummingbird %.2f, /nginx %.2f\n", q / h, q / n }'
    echo "all rounds (name req/s p50 p99):"
    sed 's/^/    /' "$WORK/wrk.txt"
}

# --- 2. cold fill ------------------------------------------------------------------------------
status_kib() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }

fill_folio() { # NAME UPSTREAM_URL: appends "name ms peak_growth rest_growth" (bytes) to fill.txt
    local routes="routes:
  - name: big
    path: /big
    upstream: $2"
    folio_config "$WORK/folio-fill.yaml" $PORT_FILL true "$routes"
    start "$WORK/folio-fill.log" "$FOLIO" serve --config "$WORK/folio-fill.yaml"
    local pid=$STARTED
    wait_http "http://127.0.0.1:$PORT_FILL/not-a-route"   # 404 without touching the upstream
    sleep 0.3
    local before seconds peak rest
    before=$(status_kib $pid VmRSS)
    seconds=$(curl -sf -o "$WORK/first-page.json" -w '%{time_total}' "http://127.0.0.1:$PORT_FILL/big?pageSize=25")
    peak=$(status_kib $pid VmHWM)
    sleep 2
    rest=$(status_kib $pid VmRSS)
    stop $pid
    grep -q '"totalCount":1000000' "$WORK/first-page.json" || { echo "$1: bad first page" >&2; exit 1; }
    awk -v n="$1" -v s="$seconds" -v b="$before" -v p="$peak" -v r="$rest" \
        'BEGIN { printf "%s %.1f %d %d\n", n, s * 1000, (p - b) * 1024, (r - b) * 1024 }' | tee -a "$WORK/fill.txt" >&2
}

fill() {
    start "$WORK/chunked.log" "$BENCH_BIN/SameBytesServer" "$WORK/www/list-1m.json" $PORT_CHUNKED --chunked
    local chunked_pid=$STARTED
    wait_http "http://127.0.0.1:$PORT_CHUNKED/list"
    local big="http://127.0.0.1:$PORT_NGINX/list-1m.json"
    : >"$WORK/fill.txt"
    for round in $(seq 1 "$FILL_ROUNDS"); do
        log "cold fill round $round/$FILL_ROUNDS"
        fill_folio folio "$big"
        echo "ahc $("$BENCH_BIN/StreamDiscard" "$big" | awk '{ print $1 }') 0 0" | tee -a "$WORK/fill.txt" >&2
        echo "curl $(curl -s -o /dev/null -w '%{time_total}' "$big" | awk '{ printf "%.1f", $1 * 1000 }') 0 0" \
            | tee -a "$WORK/fill.txt" >&2
        fill_folio folio-chunked "http://127.0.0.1:$PORT_CHUNKED/list"
    done
    stop $chunked_pid

    echo
    echo "### Cold fill: $BODY_BYTES-byte, 1,000,000-item upstream array, medians of $FILL_ROUNDS rounds"
    echo
    echo "| client | first page / body ms | RSS growth at peak | RSS growth at rest |"
    echo "|---|---:|---:|---:|"
    for name in folio ahc curl folio-chunked; do
        local ms peak rest
        ms=$(awk -v n=$name '$1 == n { print $2 }' "$WORK/fill.txt" | median)
        if [ "${name#folio}" != "$name" ]; then
            peak=$(awk -v n=$name '$1 == n { print $3 }' "$WORK/fill.txt" | median)
            rest=$(awk -v n=$name '$1 == n { print $4 }' "$WORK/fill.txt" | median)
            printf '| %s | %s | %.1f MB (%.2f x body) | %.1f MB (body + %.1f B/element) |\n' "$name" "$ms" \
                "$(awk -v v="$peak" 'BEGIN { print v / 1e6 }')" "$(awk -v v="$peak" -v b="$BODY_BYTES" 'BEGIN { print v / b }')" \
                "$(awk -v v="$rest" 'BEGIN { print v / 1e6 }')" "$(awk -v v="$rest" -v b="$BODY_BYTES" 'BEGIN { print (v - b) / 1e6 }')"
        else
            printf '| %s | %s | | |\n' "$name" "$ms"
        fi
        eval "FILL_${name//-/_}=$ms"
    done
    echo
    awk -v f="$FILL_folio" -v a="$FILL_ahc" 'BEGIN { printf "ratio folio/ahc %.2f (goal <= 1.5)\n", f / a }'
    echo "all rounds (name ms peak-growth-bytes rest-growth-bytes):"
    sed 's/^/    /' "$WORK/fill.txt"
}

case "$MODE" in
    throughput) throughput ;;
    fill) fill ;;
    all) throughput; fill ;;
    *) echo "usage: $0 [throughput|fill|all]" >&2; exit 2 ;;
esac
