#!/usr/bin/env bash
# Gateway benchmarks of issue 6, side by side on one machine (see BENCHMARKS.md).
#
#  1. Throughput of one cached 25-item page (~2.6 KB) of a 10,000-item list, `wrk -t1 -c32`,
#     alternating A B C D rounds: Folio with the default logging (access log on), Folio with
#     `logging.access: false`, a minimal Hummingbird handler returning the same bytes from
#     memory (the limit of our stack), nginx serving the same bytes as a static file (the limit
#     of the field) with one worker process and its access log on, as Folio's is. Medians of
#     requests/s, p50 and p99, and the ratios. `SERVERS="folio nginx"` runs only those.
#  2. Cold fill: time from a client's first request to its first page for a 100 MB,
#     1,000,000-item upstream array (nginx static file, Content-Length), against an
#     AsyncHTTPClient program that streams the same body and discards it, and curl
#     (informational); Folio's RSS growth at the peak and at rest against the body size, for a
#     Content-Length upstream and (beside) a chunked one.
#  3. Refill memory: the same list on a route whose entry expires after 1 s, from an nginx
#     server without validators (each refill downloads and indexes the whole body): Folio's
#     RSS growth over its start at the peak of the first fill, at rest after it, at the peak of
#     a refill (the old list held meanwhile; peak reset before it) and at rest after the
#     refill, against the body size. No other server: `refill` mode needs only folio.
#
# Usage: scripts/bench-gateway.sh [throughput|fill|refill|all|COMPARISON]   (default: all)
#   COMPARISON runs one of the other comparisons of BENCHMARKS.md's table alone, with the
#   release folio: compress, query, stall, crawl, cache-bound, shared-store, tracing, bombs.
# Environment: ROUNDS (3), DURATION (10s), FILL_ROUNDS (5), WORK (/tmp/folio-bench),
#              BUILD=0 to use existing release builds, KEEP=1 to keep $WORK,
#              FOLIO_BEFORE=/path/to/another/folio to measure it alongside ("folio-before"),
#              FOLIO=/path/to/folio instead of .build/release/folio (with BUILD=0),
#              SERVERS="folio nginx ..." the throughput servers to run (default: all of them;
#              a reference whose Benchmarks/ binary is not built is then not needed),
#              PIN=1 to run each throughput server on the last CPU alone and wrk on the others
#              (one CPU each, whatever a server's thread count).
set -euo pipefail

MODE=${1:-all}
case "$MODE" in
    compress | query | stall | crawl | cache-bound | shared-store | tracing | bombs)
        ROOT=$(cd "$(dirname "$0")/.." && pwd)
        FOLIO=${FOLIO:-$ROOT/.build/release/folio}
        if [ "${BUILD:-1}" = 1 ]; then (cd "$ROOT" && swift build -c release --product folio); fi
        script=bench-$MODE
        case "$MODE" in
            cache-bound) script=cache-bound ;;
            bombs) script=bomb-memory ;;
            stall) (cd "$ROOT/Benchmarks" && swift build -c release --product open-loop) ;;
        esac
        exec "$ROOT/scripts/$script.sh" "$FOLIO"
        ;;
    throughput | fill | refill | all) ;;
    *)
        echo "usage: $0 [throughput|fill|refill|all|compress|query|stall|crawl|cache-bound|shared-store|tracing|bombs]" >&2
        exit 2
        ;;
esac
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-10s}
FILL_ROUNDS=${FILL_ROUNDS:-5}
WORK=${WORK:-/tmp/folio-bench}
BUILD=${BUILD:-1}
ROOT=$(cd "$(dirname "$0")/.." && pwd)

PORT_NGINX=18090
PORT_FOLIO=18080
PORT_FOLIO_QUIET=18081
PORT_FOLIO_BEFORE=18082
PORT_SAME=18083
PORT_SAME_HEADERS=18086
PORT_FILL=18084
PORT_CHUNKED=18085
PORT_NIO_CODEC=18087
PORT_NIO_RAW=18088
PORT_NO_VALIDATORS=18091
PORT_REFILL=18089

# shellcheck source=scripts/bench-lib.sh
source "$ROOT/scripts/bench-lib.sh"

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
ALL_SERVERS="folio folio-no-access-log hummingbird hummingbird-folio-headers nio-http1 nio-raw nginx"
SERVERS=${SERVERS:-$ALL_SERVERS}
wanted() { [[ " $SERVERS " == *" $1 "* ]]; } # NAME: whether the throughput comparison runs it
# The Benchmarks/ products this run needs (lists are written with python3 when make-list is not
# built).
products=()
if [ "$MODE" = throughput ] || [ "$MODE" = all ]; then
    if wanted hummingbird || wanted hummingbird-folio-headers; then products+=(SameBytesServer); fi
    if wanted nio-http1 || wanted nio-raw; then products+=(NIOSameBytes); fi
fi
[ "$MODE" = throughput ] || [ "$MODE" = refill ] || products+=(SameBytesServer StreamDiscard)
if [ "$BUILD" = 1 ]; then
    log "release build of folio"
    (cd "$ROOT" && swift build -c release --product folio)
    for product in $(printf '%s\n' "${products[@]}" make-list | sort -u); do
        log "release build of $product"
        (cd "$ROOT/Benchmarks" && swift build -c release --product "$product")
    done
fi
FOLIO=${FOLIO:-$ROOT/.build/release/folio}
BENCH_BIN="$ROOT/Benchmarks/.build/release"
for binary in "$FOLIO" "${products[@]/#/$BENCH_BIN/}"; do
    [ -x "$binary" ] || { echo "missing $binary (run without BUILD=0)" >&2; exit 1; }
done

# PIN=1: the servers start on the last CPU (a server that sizes its threads by the CPUs it may
# use sees one) and run there alone, wrk on the others.
SERVER_CPU=$(($(nproc) - 1))
WRK_PREFIX=""
START_PREFIX=""
if [ "${PIN:-0}" = 1 ]; then
    WRK_PREFIX="taskset -c 0-$((SERVER_CPU > 0 ? SERVER_CPU - 1 : 0))"
    START_PREFIX="taskset -c $SERVER_CPU"
fi

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
    # shellcheck disable=SC2086
    $START_PREFIX "$@" >"$logfile" 2>&1 &
    STARTED=$!
    PIDS+=("$STARTED")
}

stop() { # PID
    kill "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

# --- data and upstream -------------------------------------------------------------------------
make_list() { # COUNT FILE: Benchmarks' make-list, or items of the same kind from python3
    if [ -x "$BENCH_BIN/make-list" ]; then
        "$BENCH_BIN/make-list" "$1" "$2" >&2
        return
    fi
    log "no make-list built: writing $2 with python3"
    python3 -c '
import json, sys
count, path = int(sys.argv[1]), sys.argv[2]
with open(path, "w") as out:
    out.write("[")
    for i in range(count):
        item = {"id": i, "name": "Item %07d" % i, "category": ["tools", "garden", "kitchen", "toys"][i % 4],
                "price": round(1 + (i * 37 % 1000) / 10, 2), "inStock": i % 3 != 0, "email": "user%d@example.com" % i}
        out.write(("," if i else "") + json.dumps(item, separators=(",", ":")))
    out.write("]")
' "$1" "$2"
}
[ -f "$WORK/www/list-10k.json" ] || make_list 10000 "$WORK/www/list-10k.json"
if [ "$MODE" != throughput ]; then
    [ -f "$WORK/www/list-1m.json" ] || make_list 1000000 "$WORK/www/list-1m.json"
    BODY_BYTES=$(stat -c %s "$WORK/www/list-1m.json")
fi

# One worker process, as Folio is one process; the page of the throughput comparison is logged
# (nginx's default `combined` line), as Folio logs it; the upstream lists are not.
cat >"$WORK/nginx.conf" <<EOF
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log;
events { worker_connections 4096; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 100000000;
    keepalive_timeout 65;
$(nginx_http_common)
    server {
        listen 127.0.0.1:$PORT_NGINX;
        root $WORK/www;
        location = /page.json { access_log $WORK/nginx-access.log; }
    }
    server {
        listen 127.0.0.1:$PORT_NO_VALIDATORS;
        root $WORK/www;
        etag off;
        if_modified_since off;
    }
}
EOF
log "nginx on :$PORT_NGINX"
"$NGINX" -c "$WORK/nginx.conf" -p "$WORK" -g 'daemon on;' 2>/dev/null
wait_http "http://127.0.0.1:$PORT_NGINX/list-10k.json"

folio_config() { # FILE PORT ACCESS(true|false) ROUTES_YAML; the admin listener (metrics) on PORT+100
    cat >"$1" <<EOF
server:
  listen: 127.0.0.1:$2
  admin: 127.0.0.1:$(($2 + 100))
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

cpu_ticks() { # PID...: user + system clock ticks used so far
    local total=0 pid
    for pid in "$@"; do total=$((total + $(awk '{ print $14 + $15 }' "/proc/$pid/stat"))); done
    echo $total
}

# Requests/s depends on what else the 2 cores run (wrk itself, other jobs); the server's own
# CPU time per request, from /proc, is the steadier figure on a shared machine.
run_wrk() { # NAME URL PID...: appends "name rps p50ms p99ms cpu_us_per_request" to $WORK/wrk.txt
    local name=$1 url=$2 out before after
    shift 2
    if [ "${PIN:-0}" = 1 ]; then
        local pid
        for pid in "$@"; do taskset -a -p -c "$SERVER_CPU" "$pid" >/dev/null; done
    fi
    before=$(cpu_ticks "$@")
    # shellcheck disable=SC2086
    out=$($WRK_PREFIX wrk -t1 -c32 -d"$DURATION" --latency "$url")
    after=$(cpu_ticks "$@")
    if grep -q 'Non-2xx' <<<"$out"; then
        echo "$name: non-2xx answers" >&2
        echo "$out" >&2
        exit 1
    fi
    local rps p50 p99 requests cpu
    rps=$(awk '/^Requests\/sec:/ { print $2 }' <<<"$out")
    p50=$(to_ms "$(awk '$1 == "50%" { print $2 }' <<<"$out")")
    p99=$(to_ms "$(awk '$1 == "99%" { print $2 }' <<<"$out")")
    requests=$(awk '/requests in/ { print $1 }' <<<"$out")
    cpu=$(awk -v t=$((after - before)) -v hz="$(getconf CLK_TCK)" -v r="$requests" 'BEGIN { printf "%.1f", t / hz * 1e6 / r }')
    echo "$name $rps $p50 $p99 $cpu" | tee -a "$WORK/wrk.txt" >&2
}


median() { sort -g | awk '{ a[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

throughput() {
    local routes="routes:
  - name: objects
    path: /objects
    upstream: http://127.0.0.1:$PORT_NGINX/list-10k.json"
    local url="/objects?pageSize=25"
    # Folio with its access log always runs: its answer is the page every other server serves.
    folio_config "$WORK/folio-access.yaml" $PORT_FOLIO true "$routes"
    start "$WORK/folio-access.log" "$FOLIO" serve --config "$WORK/folio-access.yaml"
    local folio_pid=$STARTED quiet_pid="" before_pid="" same_pid="" same_headers_pid="" nio_codec_pid="" nio_raw_pid=""
    local names="" checks=()
    wanted folio && names="folio"
    wait_http "http://127.0.0.1:$PORT_FOLIO$url"
    # The page the references serve: Folio's own answer, byte for byte.
    curl -sf -o "$WORK/www/page.json" "http://127.0.0.1:$PORT_FOLIO$url"
    log "page: $(stat -c %s "$WORK/www/page.json") bytes"
    if wanted folio-no-access-log; then
        folio_config "$WORK/folio-quiet.yaml" $PORT_FOLIO_QUIET false "$routes"
        start "$WORK/folio-quiet.log" "$FOLIO" serve --config "$WORK/folio-quiet.yaml"
        quiet_pid=$STARTED
        wait_http "http://127.0.0.1:$PORT_FOLIO_QUIET$url"
        names="$names folio-no-access-log"
        checks+=("http://127.0.0.1:$PORT_FOLIO_QUIET$url")
    fi
    if [ -n "${FOLIO_BEFORE:-}" ]; then
        folio_config "$WORK/folio-before.yaml" $PORT_FOLIO_BEFORE true "$routes"
        start "$WORK/folio-before.log" "$FOLIO_BEFORE" serve --config "$WORK/folio-before.yaml"
        before_pid=$STARTED
        wait_http "http://127.0.0.1:$PORT_FOLIO_BEFORE$url"
        names="$names folio-before"
    fi
    if wanted hummingbird; then
        start "$WORK/same.log" "$BENCH_BIN/SameBytesServer" "$WORK/www/page.json" $PORT_SAME
        same_pid=$STARTED
        wait_http "http://127.0.0.1:$PORT_SAME/page"
        names="$names hummingbird"
        checks+=("http://127.0.0.1:$PORT_SAME/page")
    fi
    if wanted hummingbird-folio-headers; then
        # Informational: the same bytes with Folio's response header fields, captured once.
        curl -sf -D "$WORK/page.headers" -o /dev/null "http://127.0.0.1:$PORT_FOLIO$url"
        start "$WORK/same-headers.log" "$BENCH_BIN/SameBytesServer" "$WORK/www/page.json" $PORT_SAME_HEADERS \
            --headers "$WORK/page.headers"
        same_headers_pid=$STARTED
        wait_http "http://127.0.0.1:$PORT_SAME_HEADERS/page"
        names="$names hummingbird-folio-headers"
    fi
    # Informational, the rungs below Hummingbird: NIO's HTTP/1 pipeline, and NIO with no codec.
    if wanted nio-http1; then
        start "$WORK/nio-codec.log" "$BENCH_BIN/NIOSameBytes" "$WORK/www/page.json" $PORT_NIO_CODEC --codec
        nio_codec_pid=$STARTED
        wait_http "http://127.0.0.1:$PORT_NIO_CODEC/page"
        names="$names nio-http1"
        checks+=("http://127.0.0.1:$PORT_NIO_CODEC/page")
    fi
    if wanted nio-raw; then
        start "$WORK/nio-raw.log" "$BENCH_BIN/NIOSameBytes" "$WORK/www/page.json" $PORT_NIO_RAW --raw
        nio_raw_pid=$STARTED
        wait_http "http://127.0.0.1:$PORT_NIO_RAW/page"
        names="$names nio-raw"
        checks+=("http://127.0.0.1:$PORT_NIO_RAW/page")
    fi
    if wanted nginx; then
        names="$names nginx"
        checks+=("http://127.0.0.1:$PORT_NGINX/page.json")
    fi
    local check
    for check in "${checks[@]}"; do
        cmp -s "$WORK/www/page.json" <(curl -sf "$check") || { echo "$check serves other bytes" >&2; exit 1; }
    done

    : >"$WORK/wrk.txt"
    # Each round's runs, "name url pid..."; even rounds take them in the reverse order, so no
    # server always has the same slot.
    local runs=()
    ! wanted folio || runs+=("folio http://127.0.0.1:$PORT_FOLIO$url $folio_pid")
    [ -z "$quiet_pid" ] || runs+=("folio-no-access-log http://127.0.0.1:$PORT_FOLIO_QUIET$url $quiet_pid")
    [ -z "$before_pid" ] || runs+=("folio-before http://127.0.0.1:$PORT_FOLIO_BEFORE$url $before_pid")
    [ -z "$same_pid" ] || runs+=("hummingbird http://127.0.0.1:$PORT_SAME/page $same_pid")
    [ -z "$same_headers_pid" ] ||
        runs+=("hummingbird-folio-headers http://127.0.0.1:$PORT_SAME_HEADERS/page $same_headers_pid")
    [ -z "$nio_codec_pid" ] || runs+=("nio-http1 http://127.0.0.1:$PORT_NIO_CODEC/page $nio_codec_pid")
    [ -z "$nio_raw_pid" ] || runs+=("nio-raw http://127.0.0.1:$PORT_NIO_RAW/page $nio_raw_pid")
    ! wanted nginx ||
        runs+=("nginx http://127.0.0.1:$PORT_NGINX/page.json $(pgrep -P "$(cat "$WORK/nginx.pid")" | tr '\n' ' ')")
    local order
    for round in $(seq 1 "$ROUNDS"); do
        log "throughput round $round/$ROUNDS"
        order=$(seq 0 $((${#runs[@]} - 1)))
        ((round % 2)) || order=$(seq $((${#runs[@]} - 1)) -1 0)
        for i in $order; do
            # shellcheck disable=SC2086
            run_wrk ${runs[$i]}
        done
        : >"$WORK/folio-access.log"  # keep the disk out of it
        : >"$WORK/nginx-access.log"
        [ -z "$before_pid" ] || : >"$WORK/folio-before.log"
    done
    local pid
    for pid in $folio_pid $quiet_pid $same_pid $same_headers_pid $nio_codec_pid $nio_raw_pid $before_pid; do stop "$pid"; done

    echo
    echo "### Throughput: one cached 25-item page ($(stat -c %s "$WORK/www/page.json") bytes), wrk -t1 -c32 -d$DURATION, medians of $ROUNDS rounds"
    [ "${PIN:-0}" != 1 ] || echo "(each server on CPU $SERVER_CPU alone, wrk on the others)"
    echo
    echo "| server | req/s | p50 ms | p99 ms | server CPU µs/request |"
    echo "|---|---:|---:|---:|---:|"
    for name in $names; do
        local rps p50 p99 cpu
        rps=$(awk -v n=$name '$1 == n { print $2 }' "$WORK/wrk.txt" | median)
        p50=$(awk -v n=$name '$1 == n { print $3 }' "$WORK/wrk.txt" | median)
        p99=$(awk -v n=$name '$1 == n { print $4 }' "$WORK/wrk.txt" | median)
        cpu=$(awk -v n=$name '$1 == n { print $5 }' "$WORK/wrk.txt" | median)
        printf '| %s | %.0f | %s | %s | %s |\n' "$name" "$rps" "$p50" "$p99" "$cpu"
        eval "RPS_${name//-/_}=$rps"
        eval "CPU_${name//-/_}=$cpu"
    done
    echo
    if wanted folio && wanted hummingbird; then
        awk -v f="$RPS_folio" -v h="$RPS_hummingbird" -v fc="$CPU_folio" -v hc="$CPU_hummingbird" \
            'BEGIN { printf "folio/hummingbird: req/s %.2f (goal >= 0.9), by server CPU %.2f\n", f / h, hc / fc }'
    fi
    if wanted folio && wanted nginx; then
        awk -v f="$RPS_folio" -v n="$RPS_nginx" -v fc="$CPU_folio" -v nc="$CPU_nginx" \
            'BEGIN { printf "folio/nginx (both logging): req/s %.2f (goal >= 1.0), by server CPU %.2f\n", f / n, nc / fc }'
    fi
    if wanted folio-no-access-log && wanted nginx; then
        awk -v q="$RPS_folio_no_access_log" -v n="$RPS_nginx" 'BEGIN { printf "folio without access log/nginx %.2f\n", q / n }'
    fi
    if wanted folio && wanted hummingbird-folio-headers; then
        awk -v f="$RPS_folio" -v h="$RPS_hummingbird_folio_headers" -v fc="$CPU_folio" -v hc="$CPU_hummingbird_folio_headers" \
            'BEGIN { printf "against the same bytes with Folio'"'"'s header fields: req/s %.2f, CPU %.2f\n", f / h, hc / fc }'
    fi
    [ -z "$before_pid" ] || awk -v f="$RPS_folio" -v b="$RPS_folio_before" \
        'BEGIN { printf "folio/folio-before %.2f\n", f / b }'
    # The VM's speed drifts within a run; a round's servers run back to back, so the ratio of
    # each round is the steadier figure.
    for pair in folio/hummingbird folio/nginx folio-no-access-log/nginx folio/folio-before; do
        per_round "${pair%/*}" "${pair#*/}"
    done
    echo "all rounds (name req/s p50 p99 cpu-us/request):"
    sed 's/^/    /' "$WORK/wrk.txt"
}

per_round() { # A B: the median and range of A's req/s over B's, round by round
    awk -v a="$1" -v b="$2" '$1 == a { x[++i] = $2 } $1 == b { y[++j] = $2 }
        END { for (k = 1; k <= i && k <= j; k++) print x[k] / y[k] }' "$WORK/wrk.txt" | sort -g |
        awk -v a="$1" -v b="$2" '{ r[NR] = $1 } END { if (NR == 0) exit
            m = NR % 2 ? r[(NR + 1) / 2] : (r[NR / 2] + r[NR / 2 + 1]) / 2
            printf "per round: %s/%s median %.2f (%.2f to %.2f over %d rounds)\n", a, b, m, r[1], r[NR], NR }'
}

# --- 2. cold fill ------------------------------------------------------------------------------
status_kib() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status"; }

fill_folio() { # NAME UPSTREAM_URL [BINARY]: appends "name ms peak_growth rest_growth cpu_ms" to fill.txt
    local binary=${3:-$FOLIO}
    local routes="routes:
  - name: big
    path: /big
    upstream: $2"
    folio_config "$WORK/folio-fill.yaml" $PORT_FILL true "$routes"
    start "$WORK/folio-fill.log" "$binary" serve --config "$WORK/folio-fill.yaml"
    local pid=$STARTED
    wait_http "http://127.0.0.1:$PORT_FILL/not-a-route"   # 404 without touching the upstream
    sleep 0.3
    local before seconds peak rest ticks
    before=$(status_kib $pid VmRSS)
    ticks=$(cpu_ticks $pid)
    seconds=$(curl -sf -o "$WORK/first-page.json" -w '%{time_total}' "http://127.0.0.1:$PORT_FILL/big?pageSize=25")
    ticks=$(($(cpu_ticks $pid) - ticks))
    peak=$(status_kib $pid VmHWM)
    sleep 2
    rest=$(status_kib $pid VmRSS)
    stop $pid
    grep -q '"totalCount":1000000' "$WORK/first-page.json" || { echo "$1: bad first page" >&2; exit 1; }
    awk -v n="$1" -v s="$seconds" -v b="$before" -v p="$peak" -v r="$rest" -v t=$ticks -v hz="$(getconf CLK_TCK)" \
        'BEGIN { printf "%s %.1f %d %d %.0f\n", n, s * 1000, (p - b) * 1024, (r - b) * 1024, t / hz * 1000 }' \
        | tee -a "$WORK/fill.txt" >&2
}

fill() {
    local START_PREFIX=""  # PIN is for the throughput comparison
    start "$WORK/chunked.log" "$BENCH_BIN/SameBytesServer" "$WORK/www/list-1m.json" $PORT_CHUNKED --chunked
    local chunked_pid=$STARTED
    wait_http "http://127.0.0.1:$PORT_CHUNKED/list"
    local big="http://127.0.0.1:$PORT_NGINX/list-1m.json"
    : >"$WORK/fill.txt"
    for round in $(seq 1 "$FILL_ROUNDS"); do
        log "cold fill round $round/$FILL_ROUNDS"
        fill_folio folio "$big"
        [ -z "${FOLIO_BEFORE:-}" ] || fill_folio folio-before "$big" "$FOLIO_BEFORE"
        "$BENCH_BIN/StreamDiscard" "$big" | awk '{ print "ahc", $1, 0, 0, $5 }' | tee -a "$WORK/fill.txt" >&2
        curl -s -o /dev/null -w '%{time_total}' "$big" | awk '{ printf "curl %.1f 0 0 -\n", $1 * 1000 }' \
            | tee -a "$WORK/fill.txt" >&2
        fill_folio folio-chunked "http://127.0.0.1:$PORT_CHUNKED/list"
    done
    stop $chunked_pid

    echo
    echo "### Cold fill: $BODY_BYTES-byte, 1,000,000-item upstream array, medians of $FILL_ROUNDS rounds"
    echo
    echo "| client | first page / body ms | process CPU ms | RSS growth at peak | RSS growth at rest |"
    echo "|---|---:|---:|---:|---:|"
    local names="folio ahc curl folio-chunked"
    [ -z "${FOLIO_BEFORE:-}" ] || names="folio folio-before ahc curl folio-chunked"
    for name in $names; do
        local ms peak rest cpu
        ms=$(awk -v n=$name '$1 == n { print $2 }' "$WORK/fill.txt" | median)
        cpu=$(awk -v n=$name '$1 == n && $5 != "-" { print $5 }' "$WORK/fill.txt" | median)
        if [ "${name#folio}" != "$name" ]; then
            peak=$(awk -v n=$name '$1 == n { print $3 }' "$WORK/fill.txt" | median)
            rest=$(awk -v n=$name '$1 == n { print $4 }' "$WORK/fill.txt" | median)
            printf '| %s | %s | %s | %.1f MB (%.2f x body) | %.1f MB (body + %.1f B/element) |\n' "$name" "$ms" "$cpu" \
                "$(awk -v v="$peak" 'BEGIN { print v / 1e6 }')" "$(awk -v v="$peak" -v b="$BODY_BYTES" 'BEGIN { print v / b }')" \
                "$(awk -v v="$rest" 'BEGIN { print v / 1e6 }')" "$(awk -v v="$rest" -v b="$BODY_BYTES" 'BEGIN { print (v - b) / 1e6 }')"
        else
            printf '| %s | %s | %s | | |\n' "$name" "$ms" "$cpu"
        fi
        eval "FILL_${name//-/_}=$ms"
    done
    echo
    awk -v f="$FILL_folio" -v a="$FILL_ahc" 'BEGIN { printf "ratio folio/ahc %.2f (goal <= 1.5)\n", f / a }'
    [ -z "${FOLIO_BEFORE:-}" ] || awk -v b="$FILL_folio_before" -v a="$FILL_ahc" 'BEGIN { printf "ratio folio-before/ahc %.2f\n", b / a }'
    echo "all rounds (name ms peak-growth-bytes rest-growth-bytes cpu-ms):"
    sed 's/^/    /' "$WORK/fill.txt"
}

# --- 3. refill memory --------------------------------------------------------------------------
refill() {
    local START_PREFIX=""
    local routes="routes:
  - name: big
    path: /big
    upstream: http://127.0.0.1:$PORT_NO_VALIDATORS/list-1m.json
    cache: { ttl: 1s, staleWhileRevalidate: 0s }"
    folio_config "$WORK/folio-refill.yaml" $PORT_REFILL true "$routes"
    : >"$WORK/refill.txt"
    for round in $(seq 1 "$FILL_ROUNDS"); do
        log "refill round $round/$FILL_ROUNDS"
        start "$WORK/folio-refill.log" "$FOLIO" serve --config "$WORK/folio-refill.yaml"
        local pid=$STARTED
        wait_http "http://127.0.0.1:$PORT_REFILL/not-a-route"
        sleep 0.3
        local base fill_peak fill_rest refill_peak refill_rest ms
        base=$(status_kib $pid VmRSS)
        curl -sf -o /dev/null "http://127.0.0.1:$PORT_REFILL/big?pageSize=25"
        fill_peak=$(status_kib $pid VmHWM)
        sleep 1.5 # past the ttl; the list at rest
        fill_rest=$(status_kib $pid VmRSS)
        echo 5 >"/proc/$pid/clear_refs" # the peak from here on is the refill's
        ms=$(curl -sf -o /dev/null -w '%{time_total}' "http://127.0.0.1:$PORT_REFILL/big?pageSize=25")
        refill_peak=$(status_kib $pid VmHWM)
        sleep 2
        refill_rest=$(status_kib $pid VmRSS)
        stop $pid
        echo "$ms $base $fill_peak $fill_rest $refill_peak $refill_rest" | awk -v b="$BODY_BYTES" '{
            printf "%.1f %.2f %.2f %.2f %.2f\n", $1 * 1000, ($3 - $2) * 1024 / b, ($4 - $2) * 1024 / b,
                ($5 - $2) * 1024 / b, ($6 - $2) * 1024 / b }' | tee -a "$WORK/refill.txt" >&2
    done
    echo
    echo "### Refill memory: $BODY_BYTES-byte, 1,000,000-item list, RSS growth over the process's start in bodies, medians of $FILL_ROUNDS rounds"
    echo
    echo "| refill ms | fill peak | fill at rest | refill peak | refill at rest |"
    echo "|---:|---:|---:|---:|---:|"
    local column values=()
    for column in 1 2 3 4 5; do values+=("$(awk -v c=$column '{ print $c }' "$WORK/refill.txt" | median)"); done
    echo "| ${values[0]} | ${values[1]} × | ${values[2]} × | ${values[3]} × | ${values[4]} × |"
    echo
    echo "goal: refill peak <= 2.2 x body, at rest unchanged"
    echo "all rounds (refill-ms fill-peak fill-rest refill-peak refill-rest, in bodies):"
    sed 's/^/    /' "$WORK/refill.txt"
}

case "$MODE" in
    throughput) throughput ;;
    fill) fill ;;
    refill) refill ;;
    all) throughput; fill; refill ;;
esac
