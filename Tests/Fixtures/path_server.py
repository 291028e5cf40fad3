"""A small HTTP/1.1 keep-alive server for the network-change tests: it says which client address
each request came from.

Usage: path_server.py HOST   (prints the port it listens on, then "address path" for each
request it receives, and serves until killed)

Paths:
  /from             200 with the client's address as the body
  /slow/KEY?seconds=S
                    the first request for KEY waits S seconds before answering (the connection
                    it came on may be gone by then); later ones answer at once. The body is the
                    client's address.
  /log              one line per request so far: "address path"
"""
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

log = []
seen = set()
lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, body):
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self):
        address = self.client_address[0]
        parts = urlsplit(self.path)
        with lock:
            log.append(f"{address} {parts.path}")
            print(f"{address} {parts.path}", flush=True)
        if parts.path == "/log":
            with lock:
                return self.answer("\n".join(log) + "\n")
        if parts.path.startswith("/slow/"):
            key = parts.path[len("/slow/"):]
            with lock:
                first = key not in seen
                seen.add(key)
            if first:
                time.sleep(float(parse_qs(parts.query).get("seconds", ["5"])[0]))
            try:
                return self.answer(address)
            except OSError:
                return
        return self.answer(address)


class Server(ThreadingHTTPServer):
    daemon_threads = True
    address_family = socket.AF_INET


def main():
    server = Server((sys.argv[1], 0), Handler)
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
