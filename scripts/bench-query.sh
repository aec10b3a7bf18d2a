#!/usr/bin/env bash
# Issue 16's figures on a 1,000,000-item list of about 100 bytes an item (BENCHMARKS.md,
# "Search, filters, sort keys, sparse fields"), release build, one run:
#
#  1. The first `?q=` on a new term (the fill folded the searchable field in the background),
#     and the same term again on an open connection (time to the first byte): curl's
#     time_starttransfer, medians of ROUNDS terms.
#  2. A two-key sort the first time (`sort=category,-price`), and a range filter plus a sort
#     the first time (`price[gte]&price[lt]&sort=-price`), each on a fresh gateway.
#  3. Memory per derived view: folio_cache_bytes before and after a `q` matching every item,
#     divided by the items it holds.
#  4. A 100-item page with `fields=id,name` against the full page (`wrk -t1 -c32`, requests/s
#     and bytes per page).
#  5. Right after a fill (issue 46): on a fresh gateway with `searchable: [name, email]`, the
#     first `?q=` asked at once after the first page, and on another fresh gateway the first
#     range filter + two-key sort (`price[gte]&price[lt]&sort=-price,name`) asked the same way.
#
# Usage: scripts/bench-query.sh [FOLIO_BINARY]   (default .build/release/folio)
# Environment: ITEMS (1000000), ROUNDS (5), DURATION (8s), WORK (/tmp/folio-bench-query),
# FIGURES (1234; 5 too when asked: which to measure; 3 needs 1), SETTLE (2: seconds between a fill and the timed
# first sort, for the fill's background fold of `name` to finish; 0 times them overlapping).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FOLIO=${1:-$ROOT/.build/release/folio}
ITEMS=${ITEMS:-1000000}
ROUNDS=${ROUNDS:-5}
DURATION=${DURATION:-8s}
WORK=${WORK:-/tmp/folio-bench-query}
FIGURES=${FIGURES:-1234}
SETTLE=${SETTLE:-2}
PORT_NGINX=18390
PORT=18380
ADMIN=18381
[ -x "$FOLIO" ] || { echo "no folio binary at $FOLIO (swift build -c release)" >&2; exit 1; }
for tool in wrk nginx curl python3; do command -v "$tool" >/dev/null || { echo "needs $tool" >&2; exit 1; }; done

rm -rf "$WORK"; mkdir -p "$WORK/www" "$WORK/tmp"; chmod 755 "$WORK" "$WORK/www"
PID=
cleanup() {
    [ -n "$PID" ] && kill "$PID" 2>/dev/null || true
    [ -f "$WORK/nginx.pid" ] && kill "$(cat "$WORK/nginx.pid")" 2>/dev/null || true
    wait 2>/dev/null || true
}
trap cleanup EXIT
# shellcheck source=scripts/bench-lib.sh
source "$ROOT/scripts/bench-lib.sh"

python3 - "$WORK/www/list.json" "$ITEMS" <<'PY'
import json, random, sys
random.seed(16)
words = ["alpha", "bravo", "Ørsted", "Œuvre", "garden", "kitchen", "tools", "émile", "zeta", "straße", "nord", "sud"]
items = []
for i in range(int(sys.argv[2])):
    name = "%s %s %06d" % (random.choice(words), random.choice(words), i)
    email = "%s.%d@example.%s" % (random.choice(words).lower(), i, random.choice(["com", "org", "net"]))
    items.append(json.dumps({"id": i, "name": name, "email": email,
                             "category": ["tools", "garden", "kitchen", "toys"][i % 4],
                             "price": round(random.uniform(1, 1000), 2), "inStock": i % 3 != 0},
                            separators=(",", ":"), ensure_ascii=False))
open(sys.argv[1], "w").write("[" + ",".join(items) + "]")
PY
log "list: $(stat -c %s "$WORK/www/list.json") bytes"

start_static_nginx $PORT_NGINX

cat >"$WORK/folio.yaml" <<YAML
server: { listen: 127.0.0.1:$PORT, admin: 127.0.0.1:$ADMIN }
logging: { level: warning, access: false }
limits: { maxUpstreamBytes: 1GiB }
cache: { ttl: 1h, maxBytes: 2GiB }
routes:
  - name: objects
    path: /objects
    upstream: http://127.0.0.1:$PORT_NGINX/list.json
    sort: [name]
    sortable: [name, price, id]
    groupable: [category]
    filterable: [price]
    searchable: [name]
YAML

sed 's/searchable: \[name\]/searchable: [name, email]/' "$WORK/folio.yaml" >"$WORK/folio-two.yaml"

# A fresh gateway with the list filled (its first page answered); CONFIG names its config.
start() {
    [ -n "$PID" ] && { kill "$PID"; wait "$PID" 2>/dev/null || true; }
    "$FOLIO" serve --config "$WORK/${CONFIG:-folio}.yaml" >"$WORK/folio.log" 2>&1 &
    PID=$!
    for _ in $(seq 200); do curl -s -o /dev/null "http://127.0.0.1:$PORT/objects?pageSize=1" && break; sleep 0.05; done
    curl -s -o /dev/null "http://127.0.0.1:$PORT/objects?pageSize=1"
}
ttfb() { curl -s -o /dev/null -w '%{time_starttransfer}\n' "http://127.0.0.1:$PORT/objects?$1" | awk '{printf "%.2f\n", $1*1000}'; }
# The same request twice on one connection: the second's time to first byte, without connecting.
ttfb_again() {
    curl -s -o /dev/null -o /dev/null -w '%{time_starttransfer}\n' "http://127.0.0.1:$PORT/objects?$1" \
        "http://127.0.0.1:$PORT/objects?$1" | awk 'NR == 2 {printf "%.2f\n", $1*1000}'
}
cache_bytes() { curl -s "http://127.0.0.1:$ADMIN/metrics" | awk '/^folio_cache_bytes /{print $2}'; }

if [[ $FIGURES == *1* ]]; then
log "1. q: a new term, then the same term again"
start
sleep 2   # the fill folds the searchable field in the background after answering
FIRST=(); AGAIN=()
terms=(orst uvre emile kitch zeta0 strass nord1 bravo9 alpha12 sud 000123)
for round in $(seq "$ROUNDS"); do
    term=${terms[$round]}
    FIRST+=("$(ttfb "q=$term&pageSize=25")")
    AGAIN+=("$(ttfb_again "q=$term&pageSize=25")")
    log "q=$term: first ${FIRST[-1]} ms, again ${AGAIN[-1]} ms"
done
echo "q on a new term, ms to first byte (median of $ROUNDS): $(printf '%s\n' "${FIRST[@]}" | median) (the very first: ${FIRST[0]}); the same term again: $(printf '%s\n' "${AGAIN[@]}" | median)"

log "3. memory per derived view"
before=$(cache_bytes)
curl -s -o /dev/null "http://127.0.0.1:$PORT/objects?q=0&pageSize=1"   # every name has digits
after=$(cache_bytes)
held=$(curl -s "http://127.0.0.1:$PORT/objects?q=0&metadataOnly" | python3 -c 'import json,sys; print(json.load(sys.stdin)["paging"]["totalCount"])')
echo "derived view (the q answer and the view it pages): $(python3 -c "print(int($after - $before))") bytes for $held items: $(python3 -c "print(round(($after - $before) / $held, 2))") bytes per item"

fi

if [[ $FIGURES == *2* ]]; then
log "2. two-key sort and range filter + sort, first time each"
SORT=(); RANGE=()
for round in $(seq "$ROUNDS"); do
    # Each on a fresh gateway once the fill's background work (folding `name` for q) is done.
    start
    sleep "$SETTLE"
    SORT+=("$(ttfb "sort=category,-price&pageSize=25")")
    start
    sleep "$SETTLE"
    RANGE+=("$(ttfb "price%5Bgte%5D=100&price%5Blt%5D=200&sort=-price&pageSize=25")")
    log "round $round: two-key sort ${SORT[-1]} ms, range + sort ${RANGE[-1]} ms"
done
echo "first two-key sort, ms (median of $ROUNDS): $(printf '%s\n' "${SORT[@]}" | median); first range filter + sort: $(printf '%s\n' "${RANGE[@]}" | median)"

fi

if [[ $FIGURES == *5* ]]; then
log "5. right after a fill: the first q on two searchable fields, the first range filter + two-key sort"
QFIRST=(); RFIRST=()
for round in $(seq "$ROUNDS"); do
    CONFIG=folio-two start
    QFIRST+=("$(ttfb "q=zoe&pageSize=25")")
    CONFIG=folio-two start
    RFIRST+=("$(ttfb "price%5Bgte%5D=100&price%5Blt%5D=200&sort=-price,name&pageSize=25")")
    log "round $round: q ${QFIRST[-1]} ms, range + sort ${RFIRST[-1]} ms"
done
echo "right after a fill, ms to first byte (median of $ROUNDS): first q on [name, email] $(printf '%s\n' "${QFIRST[@]}" | median); first range filter + sort=-price,name $(printf '%s\n' "${RFIRST[@]}" | median)"
fi

if [[ $FIGURES == *4* ]]; then
log "4. fields=id,name vs full page"
[ -n "$PID" ] || start
full_bytes=$(curl -s "http://127.0.0.1:$PORT/objects?pageSize=100" | wc -c)
sparse_bytes=$(curl -s "http://127.0.0.1:$PORT/objects?pageSize=100&fields=id,name" | wc -c)
FULL=(); SPARSE=()
for round in 1 2 3; do
    FULL+=("$(wrk -t1 -c32 -d"$DURATION" "http://127.0.0.1:$PORT/objects?pageSize=100" | awk '/Requests\/sec/ {print $2}')")
    SPARSE+=("$(wrk -t1 -c32 -d"$DURATION" "http://127.0.0.1:$PORT/objects?pageSize=100&fields=id,name" | awk '/Requests\/sec/ {print $2}')")
    log "round $round: full ${FULL[-1]} req/s, fields ${SPARSE[-1]} req/s"
done
echo "100-item page: full $full_bytes bytes $(printf '%s\n' "${FULL[@]}" | median) req/s; fields=id,name $sparse_bytes bytes $(printf '%s\n' "${SPARSE[@]}" | median) req/s"
fi
