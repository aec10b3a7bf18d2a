#!/usr/bin/env bash
# Client fling benchmark (docs/CLIENT.md, "Flings"): `folio-scroll --fling` flings the demo list
# (1,337 rows, pages of 25, margin 1) through a TCP proxy that delivers every byte half a round
# trip late each way, at 80 ms and 300 ms round trips: frames of 16 ms moving 60 rows, a rest
# after every 8 frames until the visible rows are in. Prints, per round trip and run, the page
# requests that reached Folio (counted by the proxy) against the pages shown at rest plus their
# margin (the goal: requests <= that), and the client's own counts.
# Usage: scripts/bench-client-fling.sh [folio-binary] [folio-scroll-binary]
#        (defaults: .build/release/folio, .build/release/folio-scroll)
set -euo pipefail
cd "$(dirname "$0")/.."
FOLIO=${1:-.build/release/folio}
SCROLL=${2:-.build/release/folio-scroll}
RUNS=${RUNS:-3}
for bin in "$FOLIO" "$SCROLL"; do
    [ -x "$bin" ] || { echo "no $bin: swift build -c release --product $(basename "$bin")" >&2; exit 2; }
done
WORK=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$WORK"' EXIT

cat > "$WORK/proxy.py" <<'PY'
# A TCP proxy adding DELAY seconds each way; counts the requests it forwards to the server.
import asyncio, sys
LISTEN, TARGET, DELAY, COUNT = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]) / 2000, sys.argv[4]
requests = 0
async def pump(reader, writer, counting):
    loop = asyncio.get_running_loop()
    queue = asyncio.Queue()
    async def deliver():
        global requests
        while True:
            due, data = await queue.get()
            await asyncio.sleep(max(0, due - loop.time()))
            if data is None:
                writer.close()
                return
            writer.write(data)
            if counting:
                requests += data.count(b"GET /")
                open(COUNT, "w").write(str(requests))
    task = asyncio.create_task(deliver())
    try:
        while data := await reader.read(65536):
            queue.put_nowait((loop.time() + DELAY, data))
    except ConnectionError:
        pass
    queue.put_nowait((loop.time() + DELAY, None))
    await task
async def handle(client_reader, client_writer):
    server_reader, server_writer = await asyncio.open_connection("127.0.0.1", TARGET)
    await asyncio.gather(pump(client_reader, server_writer, True), pump(server_reader, client_writer, False),
                         return_exceptions=True)
async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", LISTEN)
    await server.serve_forever()
asyncio.run(main())
PY

PORT=18471
"$FOLIO" demo --port $PORT >"$WORK/folio.log" 2>&1 &
for _ in $(seq 100); do curl -fs "http://127.0.0.1:$PORT/objects?pageSize=1" >/dev/null && break; sleep 0.1; done

echo "| round trip | run | requests reaching Folio | pages shown at rest + margin | client: requested, loaded, cancelled |"
echo "|---|---|---|---|---|"
for rtt in 80 300; do
    for run in $(seq "$RUNS"); do
        PROXY=$((PORT + 1))
        echo 0 >"$WORK/count"
        python3 "$WORK/proxy.py" $PROXY $PORT "$rtt" "$WORK/count" &
        proxy=$!
        for _ in $(seq 100); do (echo >/dev/tcp/127.0.0.1/$PROXY) 2>/dev/null && break; sleep 0.1; done
        echo 0 >"$WORK/count"  # the probe's connection carried no request
        "$SCROLL" --url "http://127.0.0.1:$PROXY/objects" --plain --fling 8 --step 60 --interval 16 \
            --margin 1 --page-size 25 --rows 15 >"$WORK/scroll.out"
        sleep $(awk "BEGIN { print $rtt * 3 / 1000 }")  # requests cancelled on their way still arrive
        kill $proxy; wait $proxy 2>/dev/null || true
        pages=$(sed -n 's/^pages: \([0-9]*\) requested, \([0-9]*\) loaded, \([0-9]*\) cancelled.*/\1, \2, \3/p' "$WORK/scroll.out")
        shown=$(sed -n 's/^pages shown at rest, with their margin: //p' "$WORK/scroll.out")
        echo "| $rtt ms | $run | $(cat "$WORK/count") | $shown | $pages |"
    done
done
