#!/usr/bin/env python3
"""A long-poll server for the scale benchmark: holds each request, then answers it.

    GET /hold?ms=N   answered after N milliseconds (default 2000) with a small JSON body
    GET /hold?ms=N&gather=G
                     held until G requests are held at once (then all of them are answered, and
                     later ones with the same G at once, until the next /stats), or N ms at most
    GET /gather?count=G&key=K&ms=N
                     held until G requests of key K are held at once (one test's requests,
                     whatever others hold), or N ms at most (default 20000); the body says
                     {"gathered": true} when they were all held, false when N ms passed first;
                     not counted by /stats
    GET /drip?chunks=N&ms=M&bytes=B
                     a chunked response of N chunks of B bytes (defaults 100, 20, 64), one
                     every M milliseconds
    GET /stats       how many /hold requests arrived since the last /stats; the seconds from
                     the first arrival to the last (how long the client took to put them all
                     on the wire) and to the last answer written (the server's own part); the
                     last arrival on the monotonic clock (`time.monotonic()`, which clients on
                     this host can read too); the most requests held at once; reading it
                     starts a new count

One asyncio loop (uvloop's when installed), HTTP/1.1 keep-alive, on 127.0.0.1 at an ephemeral
port. Raises its open-files limit as far as allowed. Prints {"url": ..., "pid": ...} on one line
once it listens, and exits when its standard input closes.
"""
import asyncio
import json
import os
import resource
import sys
import time
from urllib.parse import parse_qs, urlsplit

BODY = b'{"held":true}'


class Arrivals:
    def __init__(self):
        self.count = 0
        self.first = None
        self.last = None
        self.answered = None
        self.held = getattr(self, "held", 0)
        self.peak = self.held

    def note(self):
        now = time.monotonic()
        self.count += 1
        self.held += 1
        self.peak = max(self.peak, self.held)
        if self.first is None:
            self.first = now
        self.last = now

    def answer(self):
        self.held -= 1
        self.answered = time.monotonic()

    def take(self):
        spread = (self.last - self.first) if self.count else 0.0
        answered = (self.answered - self.first) if self.answered is not None and self.count else 0.0
        result = {"count": self.count, "spread": spread, "answered": answered,
                  "lastArrival": self.last or 0.0, "peakHeld": self.peak}
        self.__init__()
        return result


arrivals = Arrivals()
# For each gather count G: set once G requests were held at once.
gathers = {}
# For each /gather key: how many of its requests are held now, and the event set once enough were.
keyed_gathers = {}


def respond(writer, status, body):
    writer.write(b"HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
                 % (status, b"OK" if status == 200 else b"Not Found", len(body)) + body)


async def serve(reader, writer):
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            line = head.split(b"\r\n", 1)[0].decode("latin-1")
            parts = line.split(" ")
            target = urlsplit(parts[1] if len(parts) > 1 else "/")
            if target.path == "/hold":
                arrivals.note()
                query = parse_qs(target.query)
                seconds = int(query.get("ms", ["2000"])[0]) / 1000
                if "gather" in query:
                    gathered = gathers.setdefault(int(query["gather"][0]), asyncio.Event())
                    if arrivals.held >= int(query["gather"][0]):
                        gathered.set()
                    try:
                        await asyncio.wait_for(gathered.wait(), seconds)
                    except asyncio.TimeoutError:
                        pass
                else:
                    await asyncio.sleep(seconds)
                respond(writer, 200, BODY)
                arrivals.answer()
            elif target.path == "/gather":
                query = parse_qs(target.query)
                keyed = keyed_gathers.setdefault(query.get("key", [""])[0], {"held": 0, "event": asyncio.Event()})
                keyed["held"] += 1
                if keyed["held"] >= int(query.get("count", ["1"])[0]):
                    keyed["event"].set()
                try:
                    await asyncio.wait_for(keyed["event"].wait(), int(query.get("ms", ["20000"])[0]) / 1000)
                except asyncio.TimeoutError:
                    pass
                finally:
                    keyed["held"] -= 1
                respond(writer, 200, json.dumps({"gathered": keyed["event"].is_set()}).encode())
            elif target.path == "/drip":
                query = parse_qs(target.query)
                chunks, ms, size = (int(query.get(name, [default])[0])
                                    for name, default in (("chunks", "100"), ("ms", "20"), ("bytes", "64")))
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                             b"Transfer-Encoding: chunked\r\n\r\n")
                payload = b"%x\r\n%s\r\n" % (size, b"." * size)
                for _ in range(chunks):
                    writer.write(payload)
                    await writer.drain()
                    await asyncio.sleep(ms / 1000)
                writer.write(b"0\r\n\r\n")
            elif target.path == "/stats":
                gathers.clear()
                respond(writer, 200, json.dumps(arrivals.take()).encode())
            else:
                respond(writer, 404, b"{}")
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError, asyncio.LimitOverrunError, asyncio.CancelledError):
        # A client that hung up, or the server stopping with a keep-alive connection idle.
        pass
    finally:
        writer.close()


async def main():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    server = await asyncio.start_server(serve, "127.0.0.1", 0, backlog=65535)
    port = server.sockets[0].getsockname()[1]
    print(json.dumps({"url": "http://127.0.0.1:%d" % port, "pid": os.getpid()}), flush=True)
    loop = asyncio.get_running_loop()
    closed = asyncio.Event()
    loop.add_reader(sys.stdin.fileno(), lambda: closed.set() if not os.read(sys.stdin.fileno(), 4096) else None)
    async with server:
        await closed.wait()


if __name__ == "__main__":
    try:
        import uvloop  # installed by scripts/setup.sh; plain asyncio otherwise
        uvloop.run(main())
    except ImportError:
        asyncio.run(main())
