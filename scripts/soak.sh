#!/usr/bin/env bash
# Soak test: a steady request rate against a running gateway while its upstream flips between
# healthy, slow and failing.
#
#   scripts/soak.sh [DURATION]          DURATION as wrk takes it: 5m (default), 30s, 1h
#
# Environment: RATE (requests/s, default 200), CONNECTIONS (default 32; each paces itself, so
# a miss held up by a slow upstream delays only its own connection), FOLIO_BIN (default
# .build/release/folio, else .build/debug/folio), PERIOD (upstream flip cycle in seconds,
# default 60: healthy half, slow a quarter, failing a quarter), MISSES (0: no misses, so the
# latency figures are those of cached traffic alone).
#
# Traffic (scripts/soak/mix.lua): 75% cached pages in three shapes, 10% sections (index and
# beginsWith), 10% bad requests (expected 400), 5% misses (a new forwardQuery value each, so a
# new cache key and an upstream fetch; these may carry the upstream's fault). Pages and
# sections must always be 200: within staleWhileRevalidate a stale list is served while a
# background refresh runs, beyond it a refresh is waited for (at most upstreamTimeout, 1s here)
# and, failing, the stale list is served within staleIfError. The list is fresh for 2 s only,
# so the refresh paths run all the time.
# Reports statuses by kind (goal: 0 unexpected), latency percentiles, and the gateway's RSS
# at the start, the largest seen, and at the end (goal: no growth beyond cache.maxBytes, 64MiB
# here).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
duration=${1:-5m}
rate=${RATE:-200}
connections=${CONNECTIONS:-32}
period=${PERIOD:-60}

bin=${FOLIO_BIN:-}
if [[ -z "$bin" ]]; then
    if [[ -x "$root/.build/release/folio" ]]; then
        bin="$root/.build/release/folio"
    else
        bin="$root/.build/debug/folio"
        echo "soak: no release build, using the DEBUG build $bin (figures are not representative of release)"
    fi
fi
[[ -x "$bin" ]] || { echo "soak: $bin not found: swift build -c release first" >&2; exit 1; }
command -v wrk >/dev/null || { echo "soak: wrk not installed" >&2; exit 1; }

# Under .build (ignored by git), not /tmp, where other jobs' cleanups may remove it mid-run.
mkdir -p "$root/.build"
work=$(mktemp -d "$root/.build/soak.XXXXXX")
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

python3 "$root/scripts/soak/flipper.py" --port-file "$work/upstream.port" --period "$period" 2>"$work/flipper.log" &
pids+=($!)
for _ in $(seq 100); do [[ -s "$work/upstream.port" ]] && break; sleep 0.1; done
upstream_port=$(cat "$work/upstream.port")
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

cat > "$work/folio.yaml" <<YAML
server:
  listen: 127.0.0.1:$port
  admin: null
logging:
  level: error
  access: false
limits:
  upstreamTimeout: 1s
cache:
  maxBytes: 64MiB
  ttl: 2s
  staleWhileRevalidate: 30s
  staleIfError: 1h
routes:
  - name: objects
    path: /objects
    upstream: http://127.0.0.1:$upstream_port/list
    sort: [name]
    sectionKey: name
    groupable: [category]
    forwardQuery: [v]
YAML

"$bin" serve --config "$work/folio.yaml" >"$work/folio.log" 2>&1 &
folio=$!
pids+=($folio)
for _ in $(seq 200); do curl -fs "http://127.0.0.1:$port/objects?pageSize=1" >/dev/null && break; sleep 0.1; done
# Warm the cached list (and its other order) while the upstream is healthy.
curl -fs "http://127.0.0.1:$port/objects?groupBy=alphabetical&metadataOnly" >/dev/null
curl -fs "http://127.0.0.1:$port/objects?sort=-name" >/dev/null

rss() { awk '/VmRSS/ { print $2 }' "/proc/$folio/status"; }
rss_start=$(rss)
echo "$rss_start" >"$work/rss"
( while kill -0 "$folio" 2>/dev/null; do sleep 5; rss >>"$work/rss" 2>/dev/null || true; done ) &
pids+=($!)

echo "soak: $bin, $duration at $rate req/s over $connections connections, upstream cycle ${period}s, misses ${MISSES:-1}"
wrk -t2 -c"$connections" -d"$duration" --timeout 10s -s "$root/scripts/soak/mix.lua" \
    "http://127.0.0.1:$port" -- "$rate" "$connections" "${MISSES:-1}" | sed -n '/^soak:/p'
rss_end=$(rss)
rss_max=$(sort -n "$work/rss" | tail -1)
echo "soak: RSS start $((rss_start / 1024)) MiB, max $((rss_max / 1024)) MiB, end $((rss_end / 1024)) MiB"
echo "soak: RSS every 30 s (MiB): $(awk 'NR % 6 == 1 { printf "%d ", $1 / 1024 }' "$work/rss")"
echo "soak: upstream mode changes: $(awk '/^flipper:/ { print $3 }' "$work/flipper.log" | sort | uniq -c | tr -s ' \n' ' ')"
if kill -0 "$folio" 2>/dev/null; then echo "soak: gateway still running"; else echo "soak: GATEWAY DIED"; cat "$work/folio.log"; fi
