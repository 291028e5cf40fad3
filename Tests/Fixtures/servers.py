#!/usr/bin/env python3
"""Starts AF's test servers on loopback and prints one JSON line describing them.

- httpbin under gunicorn (bound to a socket this script opens, so its port is known)
- nginx: HTTP/1.1 and HTTPS with HTTP/2 in front of httpbin, plus static files; the HTTP/1.1,
  cleartext HTTP/2 and HTTPS servers also listen on Unix sockets (unixSocket, unixSocketH2c,
  unixSocketTLS)
- faults.py: a server that misbehaves on purpose
- longpoll.py: holds each request (`/hold?ms=N`) and counts how many it holds at once
- a throw-away CA and a leaf certificate for 127.0.0.1/localhost, made with openssl
- the server-trust matrix (tls_matrix.py): one HTTPS server per certificate case

Everything lives until standard input closes (the test process ended), then it is stopped.
Usage: servers.py            (stay attached to stdin)
       servers.py --detach F (write the JSON to F, stay up until killed; for reuse across runs)
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import tls_matrix
import tls_revocation

HERE = os.path.dirname(os.path.abspath(__file__))


def free_ports(count):
    """`count` distinct free ports: all bound at once, so the kernel cannot hand out one twice (two
    server blocks on one port would merge, and a plain-HTTP block on a TLS port answers 400)."""
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def make_certificates(directory):
    def run(*args):
        subprocess.run(["openssl", *args], check=True, cwd=directory,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=AF Test Root CA",
        "-keyout", "ca.key", "-out", "ca.pem",
        "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
    run("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost",
        "-keyout", "server.key", "-out", "server.csr")
    with open(os.path.join(directory, "server.ext"), "w") as f:
        f.write("subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n"
                "extendedKeyUsage=serverAuth\n")
    run("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
        "-days", "2", "-extfile", "server.ext", "-out", "server.pem")


def nginx_config(directory, http_port, https_port, h2c_port, httpbin_port, extra=""):
    static = os.path.join(directory, "static")
    os.makedirs(static, exist_ok=True)
    with open(os.path.join(static, "small.json"), "w") as f:
        f.write('{"hello":"world"}')
    with open(os.path.join(static, "1mb.bin"), "wb") as f:
        f.write(os.urandom(1 << 20))
    with open(os.path.join(static, "4mb.bin"), "wb") as f:
        f.write(os.urandom(4 << 20))
    user = "user root;" if os.geteuid() == 0 else ""
    locations = f"""
        location /static/ {{ alias {static}/; }}
        location /slow/ {{ alias {static}/; limit_rate 4m; }}
        location /fresh/ {{ alias {static}/; expires 1h; }}  # cacheable for an hour
        location /slow-no-etag/ {{ alias {static}/; limit_rate 4m; etag off; }}
        location = /bench.json {{ default_type application/json; return 200 '{{"hello":"world"}}'; }}
        location = /redirect-to-small {{ return 302 /static/small.json; }}  # with nginx's HTML body
        location / {{
            proxy_pass http://httpbin;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $http_host;
            proxy_buffering off;
            proxy_read_timeout 120s;
        }}
    """
    return f"""
{user}
daemon off;
worker_processes 1;
pid {directory}/nginx.pid;
error_log {directory}/nginx-error.log warn;
events {{ worker_connections 4096; }}
http {{
    access_log off;
    client_body_temp_path {directory}/client_body;
    proxy_temp_path {directory}/proxy;
    fastcgi_temp_path {directory}/fastcgi;
    uwsgi_temp_path {directory}/uwsgi;
    scgi_temp_path {directory}/scgi;
    keepalive_requests 1000000;
    http2_max_requests 1000000;
    upstream httpbin {{ server 127.0.0.1:{httpbin_port}; keepalive 32; }}
    server {{
        listen 127.0.0.1:{http_port};
        listen unix:{directory}/nginx.sock;
        {locations}
    }}
    server {{
        listen 127.0.0.1:{https_port} ssl http2;
        listen unix:{directory}/nginx-tls.sock ssl http2;
        ssl_certificate {directory}/server.pem;
        ssl_certificate_key {directory}/server.key;
        {locations}
    }}
    server {{
        # cleartext HTTP/2 only, for clients with prior knowledge (h2c); HTTP/1.1 is refused
        listen 127.0.0.1:{h2c_port} http2;
        listen unix:{directory}/nginx-h2c.sock http2;
        {locations}
    }}
    {extra}
}}
"""


def wait_for_port(port, process, name, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{name} did not listen on {port} within {timeout}s")


def wait_for_log(path, text, process, name, timeout=30):
    """Waits until `text` appears in the log at `path`. For servers that an empty connection upsets
    (OpenSSL 3.0's OCSP responder spins forever on a connection closed before a request)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited with {process.returncode}")
        with open(path) as f:
            if text in f.read():
                return
        time.sleep(0.05)
    raise RuntimeError(f"{name} did not start within {timeout}s")


def main():
    detach_file = sys.argv[2] if len(sys.argv) > 2 and sys.argv[1] == "--detach" else None
    directory = tempfile.mkdtemp(prefix="af-fixtures-")
    children = []

    def stop(*_):
        for child in children:
            if child.poll() is None:
                child.terminate()
        for child in children:
            try:
                child.wait(timeout=5)
            except subprocess.TimeoutExpired:
                child.kill()
        shutil.rmtree(directory, ignore_errors=True)

    signal.signal(signal.SIGTERM, lambda *_: (stop(), sys.exit(0)))
    try:
        make_certificates(directory)

        httpbin_socket = socket.socket()
        httpbin_socket.bind(("127.0.0.1", 0))
        httpbin_socket.listen(128)
        httpbin_port = httpbin_socket.getsockname()[1]
        gunicorn = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "--bind", f"fd://{httpbin_socket.fileno()}",
             "--workers", "1", "--threads", "16", "--worker-class", "gthread", "--keep-alive", "30",
             "--log-level", "warning", "httpbin:app"],
            pass_fds=[httpbin_socket.fileno()], stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(directory, "gunicorn.log"), "w"))
        children.append(gunicorn)

        faults = subprocess.Popen([sys.executable, os.path.join(HERE, "faults.py")],
                                  stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True)
        children.append(faults)
        faults_port = int(faults.stdout.readline())

        # The long-poll server stops when its standard input closes: it stays open until the end.
        longpoll = subprocess.Popen([sys.executable, os.path.join(HERE, "longpoll.py")],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        children.append(longpoll)
        longpoll_url = json.loads(longpoll.stdout.readline())["url"]

        cases = tls_matrix.CASES + tls_revocation.CASES
        ports = free_ports(7 + len(cases))
        http_port, https_port, h2c_port, crl_port, root_ocsp_port, ocsp_port, dead_port = ports[:7]
        matrix_ports = dict(zip(cases, ports[7:]))
        matrix_files = tls_matrix.make(directory)
        revocation_files, responders = tls_revocation.make(directory, crl_port, root_ocsp_port, ocsp_port, dead_port)
        with open(os.path.join(directory, "nginx.conf"), "w") as f:
            f.write(nginx_config(directory, http_port, https_port, h2c_port, httpbin_port,
                                 tls_matrix.server_blocks(directory, matrix_files, matrix_ports)
                                 + tls_revocation.server_blocks(directory, revocation_files, matrix_ports, crl_port)))
        for arguments, port in zip(responders, [root_ocsp_port, ocsp_port]):
            log = os.path.join(directory, f"ocsp-{port}.log")
            responder = subprocess.Popen(["openssl", *arguments], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                         stderr=open(log, "w"))
            children.append(responder)
            wait_for_log(log, "waiting for OCSP client connections", responder, "openssl ocsp")
        nginx_binary = shutil.which("nginx") or "/usr/sbin/nginx"
        nginx = subprocess.Popen([nginx_binary, "-c", os.path.join(directory, "nginx.conf"), "-p", directory],
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=open(os.path.join(directory, "nginx-stderr.log"), "w"))
        children.append(nginx)

        wait_for_port(httpbin_port, gunicorn, "gunicorn")
        wait_for_port(http_port, nginx, "nginx")
        wait_for_port(https_port, nginx, "nginx")
        wait_for_port(h2c_port, nginx, "nginx")
        for port in [*matrix_ports.values(), crl_port]:
            wait_for_port(port, nginx, "nginx")

        matrix = {f"tls.{case}": f"https://localhost:{port}" for case, port in matrix_ports.items()}
        description = json.dumps({
            **matrix,
            "httpbin": f"http://127.0.0.1:{httpbin_port}",
            "http": f"http://127.0.0.1:{http_port}",
            "https": f"https://localhost:{https_port}",
            "h2c": f"http://127.0.0.1:{h2c_port}",
            "faults": f"http://127.0.0.1:{faults_port}",
            "longpoll": longpoll_url,
            "caFile": os.path.join(directory, "ca.pem"),
            "unixSocket": os.path.join(directory, "nginx.sock"),
            "unixSocketH2c": os.path.join(directory, "nginx-h2c.sock"),
            "unixSocketTLS": os.path.join(directory, "nginx-tls.sock"),
            "directory": directory,
        })
        if detach_file:
            with open(detach_file, "w") as f:
                f.write(description + "\n")
            signal.pause()
        else:
            print(description, flush=True)
            sys.stdin.read()
    except Exception as error:  # report to the test process, which fails with this text
        print(json.dumps({"error": str(error)}), flush=True)
    finally:
        stop()


if __name__ == "__main__":
    main()
