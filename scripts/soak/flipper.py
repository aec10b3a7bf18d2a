#!/usr/bin/env python3
"""A legacy upstream for scripts/soak.sh that flips between healthy, slow and failing.

Serves GET /list (any query) as one JSON array of ITEMS objects. The mode follows the wall
clock in cycles of PERIOD seconds, starting healthy:
  healthy  first half of the cycle        200 with the list
  slow     third quarter                  the list after SLOW seconds (beyond Folio's upstreamTimeout)
  failing  last quarter                   alternately a 503 and a connection closed without an answer
Mode changes are logged on stderr. The bound port is written to --port-file.
"""
import argparse
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("--port-file", required=True)
parser.add_argument("--items", type=int, default=2000)
parser.add_argument("--period", type=float, default=60.0)
parser.add_argument("--slow", type=float, default=3.0)
args = parser.parse_args()

letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
body = json.dumps(
    [
        {"id": i, "name": f"{letters[(i * 7) % 26]}{letters[(i * 11) % 26].lower()}item {i}",
         "category": ["tools", "toys", "books", "food"][i % 4], "price": round(i * 0.37, 2)}
        for i in range(args.items)
    ],
    separators=(",", ":"),
).encode()
started = time.monotonic()
lock = threading.Lock()
state = {"mode": None, "failures": 0}


def mode():
    phase = ((time.monotonic() - started) % args.period) / args.period
    current = "healthy" if phase < 0.5 else "slow" if phase < 0.75 else "failing"
    with lock:
        if current != state["mode"]:
            state["mode"] = current
            print(f"flipper: {time.strftime('%H:%M:%S')} {current}", file=sys.stderr, flush=True)
    return current


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *_):
        pass

    def do_GET(self):
        current = mode()
        try:
            if current == "failing":
                with lock:
                    state["failures"] += 1
                    drop = state["failures"] % 2 == 0
                if drop:
                    self.close_connection = True
                    return
                error = b'{"error":"overloaded"}'
                self.send_response(503)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(error)))
                self.end_headers()
                self.wfile.write(error)
                return
            if current == "slow":
                time.sleep(args.slow)
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        # Folio hangs up on slow answers (its upstreamTimeout): expected, not worth a traceback.
        pass


server = Server(("127.0.0.1", 0), Handler)
with open(args.port_file, "w") as f:
    f.write(str(server.server_address[1]))
mode()
server.serve_forever()
