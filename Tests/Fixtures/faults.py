"""A small HTTP/1.1 server that misbehaves on purpose, for fault tests.

Paths:
  /close-mid-body   promises 1000 bytes, sends 10, closes the connection
  /length-lie       promises 2,000,000,000 bytes, sends 5, closes
  /stall            accepts the request and never answers (until the client leaves)
  /malformed-json   200 with Content-Type application/json and a broken body
  /garbage          answers with bytes that are not HTTP
  /connections      how many connections this server accepted so far (text/plain)
Anything else: 404.
"""
import socket
import sys
import threading

accepted = 0
accepted_lock = threading.Lock()


def respond(conn, status, body, content_type="text/plain", extra=b""):
    head = (f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {len(body)}\r\n").encode() + extra + b"\r\n"
    conn.sendall(head + body)


def handle(conn):
    global accepted
    with conn:
        try:
            while True:
                data = b""
                while b"\r\n\r\n" not in data:
                    chunk = conn.recv(65536)
                    if not chunk:
                        return
                    data += chunk
                line = data.split(b"\r\n", 1)[0].decode("latin-1")
                parts = line.split(" ")
                path = parts[1] if len(parts) > 1 else "/"
                if path == "/close-mid-body":
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n0123456789")
                    return
                if path == "/length-lie":
                    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2000000000\r\n\r\nhello")
                    return
                if path == "/stall":
                    while conn.recv(65536):
                        pass
                    return
                if path == "/garbage":
                    conn.sendall(b"\x00\x01\x02 this is not http\r\n\r\n")
                    return
                if path == "/malformed-json":
                    respond(conn, "200 OK", b'{"key": "value", oops', "application/json")
                    continue
                if path == "/connections":
                    with accepted_lock:
                        count = accepted
                    respond(conn, "200 OK", str(count).encode())
                    continue
                respond(conn, "404 Not Found", b"not found")
        except OSError:
            return


def serve(listener):
    global accepted
    while True:
        conn, _ = listener.accept()
        with accepted_lock:
            accepted += 1
        threading.Thread(target=handle, args=(conn,), daemon=True).start()


if __name__ == "__main__":
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 0))
    listener.listen(128)
    print(listener.getsockname()[1], flush=True)
    serve(listener)
