"""A small HTTP/1.1 server that misbehaves on purpose, for fault tests.

Paths:
  /close-mid-body   promises 1000 bytes, sends 10, closes the connection
  /length-lie       promises 2,000,000,000 bytes, sends 5, closes
  /stall            accepts the request and never answers (until the client leaves)
  /malformed-json   200 with Content-Type application/json and a broken body
  /garbage          answers with bytes that are not HTTP
  /four-digit-status
                    answers "HTTP/2 1000" (a status line curl 7.88 lets through), then closes
  /connections      how many connections this server accepted so far (text/plain)
  /flaky/KEY?fail=N&status=S&retry-after=V
                    the first N requests for KEY get status S (default 503), with Retry-After V
                    when given; later ones get 200 and {"attempt": n}
  /flaky-close/KEY?fail=N
                    the first N requests for KEY get the connection closed without an answer
  /flaky-json/KEY?fail=N
                    the first N requests for KEY get broken JSON, later ones {"attempt": n}
  /basic-challenge  401 with a Basic challenge, or 200 echoing the Authorization it was sent
                    (with ?answer=close, the connection closed without an answer instead)
  /digest-stale     401 with a Digest challenge (nonce "first"); an answer to it gets another
                    with stale=true (nonce "second"), an answer to that 200 "fresh" (the
                    answers' hashes are not checked)
  /sink             reads a request body of any size (Content-Length or chunked) without keeping
                    it, and answers {"bytes": n}; with ?digest=sha256 also {"sha256": hex,
                    "chunked": whether it came chunked}
  /resumable?size=N&cut=C&mode=M&validator=V
                    a body of N deterministic bytes (byte i = (7i + 3) mod 256) with a validator
                    (V = etag, the default: ETag "v1"; V = date: Last-Modified) and Accept-Ranges.
                    Without a Range (or with an If-Range that does not match): 200, and when C is
                    given only the first C bytes are sent before the connection closes. With
                    `Range: bytes=S-` and a matching If-Range: 206 with bytes S..N-1, unless M
                    says otherwise: ignore (200 with the whole body), wrong (206 from byte 0),
                    416 (Range Not Satisfiable), error (503 with a short text body, or with
                    &answerSize=A a body of A bytes, byte i = (5i + 1) mod 256; &answerCut=K
                    sends only its first K bytes, then closes the connection), chunked
                    (the 206 sent chunked, without a Content-Length), short (a 206 of 100 bytes
                    from S, its Content-Range saying so).
  /blob?size=N      N bytes (a repeated 1 MiB pattern) with a Content-Length, for large downloads
  /redirect-body?size=N
                    302 to /blob?size=3 with a body of N bytes (the /blob pattern)
  /multipart-echo?parser=email|werkzeug
                    parses a multipart/form-data body with Python's standard library (email) or
                    Werkzeug (httpbin's parser) and answers {"parts": [{name, filename,
                    contentType, size, sha256, base64 (bodies up to 64 KiB)}]} in body order;
                    with &key=K&fail=N, the first N requests for K read the body and get 503
                    (401 with &status=401)
  /wire/KEY         200 with the request head exactly as it arrived (latin-1 text) as the body
  /wire-count/KEY   how many request heads received so far contain KEY anywhere, the request line
                    included (text/plain; heads of /wire-count requests are not kept)
  /inflate?size=N&coding=C&content=K
                    a body of N bytes before coding, coded with C (gzip, the default, or deflate) as it
                    is sent, close-delimited: K = zeros (the default: a decompression bomb, about
                    1,000:1) or json (a JSON array of similar records, about 10:1)
  /cacheable/KEY?h=Name:Value&h=...&etag=E&last-modified=D
                    answers with the header fields given as h (Cache-Control, Vary, Expires, ...), an
                    ETag E and a Last-Modified D when given, and {"served": n, "key": KEY, "ifNoneMatch",
                    "ifModifiedSince", "acceptLanguage"}: n counts the requests for KEY (any method; a
                    body is read and dropped). A request whose If-None-Match is E, or whose
                    If-Modified-Since is D, gets 304 with the same fields and no body.
  /count/KEY        how many requests /cacheable/KEY received (text/plain)
  /oauth/token      an OAuth 2.0 token endpoint (RFC 6749) for the client KEY (HTTP Basic, or client_id
                    in the form; the secret is "secret"): grant_type=refresh_token (refresh token
                    "revoked" gets invalid_grant) or client_credentials; issues a new access token
                    for KEY each time, with expires_in 3600 and a new refresh token. ?broken=1
                    answers 500 with a text body.
  /oauth/resource/KEY  200 {"token": t} when the Bearer token is KEY's latest, else 401
  /oauth/refreshes/KEY how many token requests KEY made (text/plain)
  /oauth/forget/KEY    forgets the tokens issued to KEY so far, as a restarted token server would:
                       its access token gets 401, a refresh with one of its refresh tokens invalid_grant
  CONNECT host:port  a tunnel, as an HTTP proxy makes one for HTTPS: 200 (with an X-Proxy field),
                    then bytes both ways; CONNECT refused.invalid:443 gets 403 with a short body
Anything else: 404.
"""
import collections
import hashlib
import json
import socket
import sys
import threading
import zlib
from urllib.parse import parse_qs, urlsplit

accepted = 0
accepted_lock = threading.Lock()
attempts = {}
# Every request head received (the last 10,000), for /wire-count.
heads = collections.deque(maxlen=10000)


def next_attempt(key):
    """Counts requests per key (1, 2, ...)."""
    with accepted_lock:
        attempts[key] = attempts.get(key, 0) + 1
        return attempts[key]


def respond(conn, status, body, content_type="text/plain", extra=b""):
    head = (f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {len(body)}\r\n").encode() + extra + b"\r\n"
    conn.sendall(head + body)


LAST_MODIFIED = "Wed, 21 Oct 2026 07:28:00 GMT"


def resumable(conn, headers, query):
    """Serves /resumable (see the module doc). Returns False when the connection was closed."""
    size = int(query.get("size", ["1000"])[0])
    mode = query.get("mode", [""])[0]
    body = bytes((7 * i + 3) % 256 for i in range(size))
    if query.get("validator", ["etag"])[0] == "date":
        validator, validator_header = LAST_MODIFIED, f"Last-Modified: {LAST_MODIFIED}\r\n"
    else:
        validator, validator_header = '"v1"', 'ETag: "v1"\r\n'
    extra = (validator_header + "Accept-Ranges: bytes\r\n").encode()
    wanted = headers.get("range", "")
    if wanted.startswith("bytes=") and headers.get("if-range") == validator and mode != "ignore":
        start = int(wanted[len("bytes="):].split("-")[0])
        if mode == "416":
            respond(conn, "416 Range Not Satisfiable", b"", extra=f"Content-Range: bytes */{size}\r\n".encode())
        elif mode == "error":
            answer_size = int(query.get("answerSize", ["0"])[0])
            answer = bytes((5 * i + 1) % 256 for i in range(answer_size)) if answer_size else b"busy, try later"
            if "answerCut" in query:
                cut = int(query["answerCut"][0])
                conn.sendall((f"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
                              f"Content-Length: {len(answer)}\r\n\r\n").encode() + answer[:cut])
                return False
            respond(conn, "503 Service Unavailable", answer)
        elif mode == "chunked":
            rest = body[start:]
            conn.sendall((f"HTTP/1.1 206 Partial Content\r\nContent-Type: application/octet-stream\r\n"
                          f"Transfer-Encoding: chunked\r\nContent-Range: bytes {start}-{size - 1}/{size}\r\n").encode()
                         + extra + b"\r\n" + (f"{len(rest):x}\r\n".encode() + rest + b"\r\n" if rest else b"")
                         + b"0\r\n\r\n")
        elif mode == "short":
            last = min(start + 99, size - 1)
            respond(conn, "206 Partial Content", body[start:last + 1], "application/octet-stream",
                    extra + f"Content-Range: bytes {start}-{last}/{size}\r\n".encode())
        else:
            first = 0 if mode == "wrong" else start
            content_range = f"Content-Range: bytes {first}-{size - 1}/{size}\r\n".encode()
            respond(conn, "206 Partial Content", body[first:], "application/octet-stream", extra + content_range)
        return True
    if "cut" in query:
        cut = int(query["cut"][0])
        head = (f"HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                f"Content-Length: {size}\r\n").encode() + extra + b"\r\n"
        conn.sendall(head + body[:cut])
        return False
    respond(conn, "200 OK", body, "application/octet-stream", extra)
    return True


def read_body(conn, headers, buffered):
    """Reads a Content-Length request body whole."""
    length = int(headers.get("content-length", "0"))
    body = buffered
    while len(body) < length:
        chunk = conn.recv(min(1 << 20, length - len(body)))
        if not chunk:
            break
        body += chunk
    return body


def describe_part(name, filename, content_type, payload):
    import base64
    part = {"name": name, "filename": filename, "contentType": content_type,
            "size": len(payload), "sha256": hashlib.sha256(payload).hexdigest()}
    if len(payload) <= 65536:
        part["base64"] = base64.b64encode(payload).decode()
    return part


def multipart_echo(headers, body, parser):
    """The parts of a multipart/form-data body as a parser sees them."""
    content_type = headers.get("content-type", "")
    if parser == "werkzeug":
        import io
        from werkzeug.formparser import parse_form_data
        environ = {"REQUEST_METHOD": "POST", "CONTENT_TYPE": content_type,
                   "CONTENT_LENGTH": str(len(body)), "wsgi.input": io.BytesIO(body)}
        _, form, files = parse_form_data(environ)
        parts = [describe_part(name, None, None, value.encode()) for name, value in form.items(multi=True)]
        parts += [describe_part(name, f.filename, f.mimetype or None, f.read()) for name, f in files.items(multi=True)]
        return {"parts": parts}
    import email.parser
    import email.policy
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n" + body)
    def text(value):  # raw UTF-8 in headers arrives as surrogate escapes
        return value.encode("utf-8", "surrogateescape").decode("utf-8") if value else value
    parts = []
    for part in message.iter_parts():
        parts.append(describe_part(text(part.get_param("name", header="content-disposition")),
                                   text(part.get_filename()), part.get("content-type"),
                                   part.get_payload(decode=True) or b""))
    return {"parts": parts, "defects": [str(d) for d in message.defects]}


def drain_body(conn, headers, buffered, digest=None):
    """Reads a request body, feeding it to `digest` if given; returns its length. `buffered`:
    bytes already read."""
    if "content-length" in headers:
        remaining = int(headers["content-length"]) - len(buffered)
        total = len(buffered)
        if digest:
            digest.update(buffered)
        while remaining > 0:
            chunk = conn.recv(min(1 << 20, remaining))
            if not chunk:
                break
            if digest:
                digest.update(chunk)
            remaining -= len(chunk)
            total += len(chunk)
        return total
    if headers.get("transfer-encoding", "").lower() != "chunked":
        return len(buffered)
    pending, total = buffered, 0
    while True:
        while b"\r\n" not in pending:
            chunk = conn.recv(65536)
            if not chunk:  # the client went away inside a chunk-size line
                return total
            pending += chunk
        size_line, pending = pending.split(b"\r\n", 1)
        size = int(size_line.split(b";")[0], 16)
        while len(pending) < size + 2:
            chunk = conn.recv(1 << 20)
            if not chunk:
                return total
            pending += chunk
        total += size
        if digest:
            digest.update(pending[:size])
        pending = pending[size + 2:]
        if size == 0:
            return total


oauth_tokens = {}      # client -> its latest access token
oauth_refreshes = {}   # client -> token requests
oauth_forgotten = {}   # client -> the refresh tokens up to this number are forgotten


def oauth_token(conn, headers, body, query):
    """The /oauth/token endpoint."""
    import base64
    form = {name: values[0] for name, values in parse_qs(body.decode()).items()}
    client, secret = form.get("client_id"), form.get("client_secret")
    authorization = headers.get("authorization", "")
    if authorization.startswith("Basic "):
        client, _, secret = base64.b64decode(authorization[6:]).decode().partition(":")
    with accepted_lock:
        count = oauth_refreshes[client] = oauth_refreshes.get(client, 0) + 1

    def answer(status, fields):
        respond(conn, status, json.dumps(fields).encode(), "application/json")

    if query.get("broken"):
        return respond(conn, "500 Internal Server Error", b"upstream down")
    if not client:
        return answer("401 Unauthorized", {"error": "invalid_client", "error_description": "no client"})
    grant = form.get("grant_type")
    if grant == "client_credentials" and secret != "secret":
        return answer("401 Unauthorized", {"error": "invalid_client", "error_description": "wrong secret"})
    if grant == "refresh_token" and form.get("refresh_token") == "revoked":
        return answer("400 Bad Request", {"error": "invalid_grant", "error_description": "refresh token revoked"})
    issued = form.get("refresh_token", "")
    if grant == "refresh_token" and issued.startswith(f"rt-{client}-"):
        with accepted_lock:
            forgotten = oauth_forgotten.get(client, 0)
        if int(issued.rsplit("-", 1)[1]) <= forgotten:
            return answer("400 Bad Request", {"error": "invalid_grant", "error_description": "refresh token unknown"})
    if grant not in ("refresh_token", "client_credentials"):
        return answer("400 Bad Request", {"error": "unsupported_grant_type"})
    token = f"at-{client}-{count}"
    with accepted_lock:
        oauth_tokens[client] = token
    answer("200 OK", {"access_token": token, "token_type": "Bearer", "expires_in": 3600,
                      "refresh_token": f"rt-{client}-{count}"})


def oauth_resource(conn, key, headers):
    """The /oauth/resource/KEY endpoint."""
    with accepted_lock:
        latest = oauth_tokens.get(key)
    if latest and headers.get("authorization") == f"Bearer {latest}":
        return respond(conn, "200 OK", json.dumps({"token": latest}).encode(), "application/json")
    respond(conn, "401 Unauthorized", b"token refused", extra=b'WWW-Authenticate: Bearer error="invalid_token"\r\n')


def cacheable(conn, key, headers, query):
    """The /cacheable/KEY endpoint: caching headers from the query, a request counter in the body."""
    served = next_attempt("/cacheable/" + key)
    etag = query.get("etag", [None])[0]
    last_modified = query.get("last-modified", [None])[0]
    extra = "".join(f"{field.split(':', 1)[0]}: {field.split(':', 1)[1]}\r\n" for field in query.get("h", []))
    extra += f"ETag: {etag}\r\n" if etag else ""
    extra += f"Last-Modified: {last_modified}\r\n" if last_modified else ""
    not_modified = (etag and headers.get("if-none-match") == etag) or \
        (last_modified and "if-none-match" not in headers and headers.get("if-modified-since") == last_modified)
    if not_modified:
        conn.sendall(f"HTTP/1.1 304 Not Modified\r\n{extra}\r\n".encode())
        return
    body = json.dumps({"served": served, "key": key, "ifNoneMatch": headers.get("if-none-match"),
                       "ifModifiedSince": headers.get("if-modified-since"),
                       "acceptLanguage": headers.get("accept-language")}).encode()
    respond(conn, "200 OK", body, "application/json", extra.encode())


def inflate(conn, query):
    """The /inflate endpoint: a content-coded body made as it is sent; returns when done or when
    the client has gone."""
    size = int(query.get("size", ["0"])[0])
    coding = query.get("coding", ["gzip"])[0]
    content = query.get("content", ["zeros"])[0]
    compressor = zlib.compressobj(6, zlib.DEFLATED, 31 if coding == "gzip" else 15)
    conn.sendall((f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: {coding}\r\n"
                  "Connection: close\r\n\r\n").encode())
    zeros = bytes(1 << 20)
    made, record = 0, 0
    try:
        while made < size:
            if content == "json":
                piece = b"[" if made == 0 else b""
                while len(piece) < (1 << 16):
                    piece += json.dumps({"id": record, "name": f"item {record}", "tags": ["a", "b"],
                                         "score": record * 7 % 1000}).encode() + b","
                    record += 1
                piece = piece[:size - made]
            else:
                piece = zeros[:size - made]
            made += len(piece)
            conn.sendall(compressor.compress(piece))
        conn.sendall(compressor.flush())
    except OSError:
        pass


def tunnel(conn, target, early):
    """A CONNECT tunnel to `target` ("host:port"): bytes both ways until either side closes."""
    host, _, port = target.rpartition(":")
    if host == "refused.invalid":
        respond(conn, "403 Forbidden", b"tunnel refused")
        return
    try:
        upstream = socket.create_connection((host.strip("[]"), int(port)), timeout=10)
    except (OSError, ValueError):
        respond(conn, "502 Bad Gateway", b"no route to the target")
        return
    upstream.settimeout(None)
    conn.sendall(b"HTTP/1.1 200 Connection established\r\nX-Proxy: faults\r\n\r\n")
    if early:
        upstream.sendall(early)

    def pump(source, sink):
        try:
            while chunk := source.recv(65536):
                sink.sendall(chunk)
        except OSError:
            pass
        for side in (source, sink):
            try:
                side.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    back = threading.Thread(target=pump, args=(upstream, conn), daemon=True)
    back.start()
    pump(conn, upstream)
    back.join()
    upstream.close()


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
                head_text = data.split(b"\r\n\r\n", 1)[0].decode("latin-1")
                line = head_text.split("\r\n", 1)[0]
                parts = line.split(" ")
                if parts[0] == "CONNECT" and len(parts) > 1:
                    return tunnel(conn, parts[1], data.split(b"\r\n\r\n", 1)[1])
                target = urlsplit(parts[1] if len(parts) > 1 else "/")
                path, query = target.path, parse_qs(target.query)
                headers = {}
                for header_line in head_text.split("\r\n")[1:]:
                    name, _, value = header_line.partition(":")
                    headers[name.strip().lower()] = value.strip()
                if path.startswith("/wire-count/"):
                    with accepted_lock:
                        seen = sum(1 for head in heads if path[len("/wire-count/"):] in head)
                    respond(conn, "200 OK", str(seen).encode())
                    continue
                with accepted_lock:
                    heads.append(head_text)
                if path.startswith("/wire/"):
                    respond(conn, "200 OK", head_text.encode("latin-1"))
                    continue
                fail = int(query.get("fail", ["0"])[0])
                if path.startswith("/flaky/"):
                    attempt = next_attempt(path)
                    if attempt <= fail:
                        extra = b""
                        if "retry-after" in query:
                            extra = f"Retry-After: {query['retry-after'][0]}\r\n".encode()
                        status = query.get("status", ["503"])[0]
                        respond(conn, f"{status} Failing", b"failing", extra=extra)
                    else:
                        respond(conn, "200 OK", json.dumps({"attempt": attempt}).encode(), "application/json")
                    continue
                if path.startswith("/flaky-close/"):
                    if next_attempt(path) <= fail:
                        return
                    respond(conn, "200 OK", b'{"ok": true}', "application/json")
                    continue
                if path.startswith("/flaky-json/"):
                    attempt = next_attempt(path)
                    body = b'{"attempt": ' if attempt <= fail else json.dumps({"attempt": attempt}).encode()
                    respond(conn, "200 OK", body, "application/json")
                    continue
                if path.startswith("/cacheable/"):
                    drain_body(conn, headers, data.split(b"\r\n\r\n", 1)[1])
                    cacheable(conn, path[len("/cacheable/"):], headers, query)
                    continue
                if path == "/oauth/token":
                    oauth_token(conn, headers, read_body(conn, headers, data.split(b"\r\n\r\n", 1)[1]), query)
                    continue
                if path.startswith("/oauth/resource/"):
                    oauth_resource(conn, path[len("/oauth/resource/"):], headers)
                    continue
                if path.startswith("/oauth/forget/"):
                    client = path[len("/oauth/forget/"):]
                    with accepted_lock:
                        oauth_forgotten[client] = oauth_refreshes.get(client, 0)
                        oauth_tokens.pop(client, None)
                    respond(conn, "200 OK", b"forgotten")
                    continue
                if path.startswith("/oauth/refreshes/"):
                    with accepted_lock:
                        count = oauth_refreshes.get(path[len("/oauth/refreshes/"):], 0)
                    respond(conn, "200 OK", str(count).encode())
                    continue
                if path.startswith("/count/"):
                    with accepted_lock:
                        count = attempts.get("/cacheable/" + path[len("/count/"):], 0)
                    respond(conn, "200 OK", str(count).encode())
                    continue
                if path == "/sink":
                    rest = data.split(b"\r\n\r\n", 1)[1]
                    # ?digest=sha256 adds the body's digest and whether it came chunked (hashing
                    # costs the benchmarks' gigabyte uploads seconds, so only when asked).
                    digest = hashlib.sha256() if query.get("digest") == ["sha256"] else None
                    received = drain_body(conn, headers, rest, digest)
                    answer = {"bytes": received}
                    if digest:
                        answer["sha256"] = digest.hexdigest()
                        answer["chunked"] = headers.get("transfer-encoding", "").lower() == "chunked"
                    respond(conn, "200 OK", json.dumps(answer).encode(), "application/json")
                    continue
                if path == "/inflate":
                    inflate(conn, query)
                    return
                if path in ("/blob", "/redirect-body"):
                    size = int(query.get("size", ["0"])[0])
                    status = "200 OK" if path == "/blob" else "302 Found\r\nLocation: /blob?size=3"
                    conn.sendall((f"HTTP/1.1 {status}\r\nContent-Type: application/octet-stream\r\n"
                                  f"Content-Length: {size}\r\n\r\n").encode())
                    block = bytes(range(256)) * 4096
                    sent = 0
                    while sent < size:
                        piece = block[:min(len(block), size - sent)]
                        conn.sendall(piece)
                        sent += len(piece)
                    continue
                if path == "/multipart-echo":
                    body = read_body(conn, headers, data.split(b"\r\n\r\n", 1)[1])
                    parser = query.get("parser", ["email"])[0]
                    key, fail = query.get("key", [None])[0], int(query.get("fail", ["0"])[0])
                    if key and next_attempt("/multipart-echo/" + key) <= fail:
                        refusal = {"401": "401 Unauthorized"}.get(query.get("status", [""])[0], "503 Service Unavailable")
                        respond(conn, refusal, b"try again", "text/plain")
                        continue
                    answer = json.dumps(multipart_echo(headers, body, parser)).encode()
                    respond(conn, "200 OK", answer, "application/json")
                    continue
                if path == "/resumable":
                    if not resumable(conn, headers, query):
                        return
                    continue
                if path == "/basic-challenge":
                    if "authorization" in headers and query.get("answer") == ["close"]:
                        return
                    if "authorization" in headers:
                        respond(conn, "200 OK", headers["authorization"].encode())
                    else:
                        respond(conn, "401 Unauthorized", b"who are you",
                                extra=b'WWW-Authenticate: Basic realm="af"\r\n')
                    continue
                if path == "/digest-stale":
                    authorization = headers.get("authorization", "")
                    challenge = 'Digest realm="af", qop="auth", algorithm=MD5, nonce='
                    if 'nonce="second"' in authorization:
                        respond(conn, "200 OK", b"fresh")
                    elif 'nonce="first"' in authorization:
                        respond(conn, "401 Unauthorized", b"stale nonce",
                                extra=f'WWW-Authenticate: {challenge}"second", stale=true\r\n'.encode())
                    else:
                        respond(conn, "401 Unauthorized", b"who are you",
                                extra=f'WWW-Authenticate: {challenge}"first"\r\n'.encode())
                    continue
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
                if path == "/four-digit-status":
                    conn.sendall(b"HTTP/2 1000 X\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok")
                    return
                if path == "/terminal-escape":
                    # A header value that would set a terminal's title if printed raw.
                    respond(conn, "200 OK", b"ok", extra=b"X-Title: \x1b]0;pwned\x07\r\n")
                    continue
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
