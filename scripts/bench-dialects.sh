#!/usr/bin/env bash
# Side by side: wrk throughput of one cached page (25 items at offset 50 of the demo's list of 1,337) in
# Folio's own shape and in each dialect of docs/API.md, "More dialects", in alternating rounds (ROUNDS of
# DURATION each); medians and their ratios to Folio's page. Needs wrk, curl, python3 and a release build:
#   swift build -c release --product folio && scripts/bench-dialects.sh
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
FOLIO=${FOLIO:-$ROOT/.build/release/folio}
PORT=${PORT:-18311}
$FOLIO demo --port $PORT > ${TMPDIR:-/tmp}/folio-bench-dialects-demo.log 2>&1 &
DEMO=$!
trap 'kill $DEMO' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT/objects?pageSize=1" >/dev/null && break; sleep 0.2; done
B=http://127.0.0.1:$PORT
cursor=$(curl -s "$B/objects?pageSize=1&offset=49" | python3 -c 'import sys,json; d=json.load(sys.stdin); print(d["objects"][0]["id"])')
declare -A urls=(
  [folio]="/objects?pageSize=25&offset=50"
  [jsonapi]="/jsonapi/objects?page%5Bnumber%5D=3&page%5Bsize%5D=25"
  [odata]="/odata/objects?%24top=25&%24skip=50"
  [laravel]="/laravel/objects?page=3&per_page=25"
  [strapi]="/strapi/objects?pagination%5Bpage%5D=3&pagination%5BpageSize%5D=25"
  [stripe]="/stripe/objects?limit=25&starting_after=$cursor"
)
order=(folio jsonapi odata laravel strapi stripe)
for d in "${order[@]}"; do curl -sf "$B${urls[$d]}" > /dev/null; done
declare -A rps
for _ in $(seq "${ROUNDS:-3}"); do
  for d in "${order[@]}"; do
    r=$(wrk -t1 -c16 -d${DURATION:-4s} "$B${urls[$d]}" | awk '/Requests\/sec/ {print $2}')
    rps[$d]="${rps[$d]:-} $r"
  done
done
for d in "${order[@]}"; do
  echo "$d ${rps[$d]}"
done | python3 -c '
import sys, statistics
rows = [(l.split()[0], [float(x) for x in l.split()[1:]]) for l in sys.stdin]
base = statistics.median(rows[0][1])
for name, values in rows:
    m = statistics.median(values)
    print(f"{name:8} median {m:9.0f} req/s  {m/base:5.2f}x folio   rounds {values}")
'
