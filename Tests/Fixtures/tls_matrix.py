"""Certificates and nginx servers for the server-trust matrix, in the spirit of badssl.com.

Each case is an HTTPS server on loopback with its own certificate; every request it receives is
logged to matrix-<case>.log as "<uri>|<Authorization>|<request length>", so tests can prove that
a rejected connection never carried a request.

Cases (all for host "localhost" unless said):
  valid             leaf signed by the test root CA (the one SSL_CERT_FILE trusts)
  intermediate      leaf signed by an intermediate CA, served with the intermediate
  incomplete-chain  the same leaf served without its intermediate
  wrong-host        leaf for wrong.example
  self-signed       a self-signed leaf
  untrusted-root    leaf signed by "AF Internal CA", which nothing trusts by default
  expired           valid from 2020-01-01 to 2020-01-02
  not-yet-valid     valid from 2099-01-01 to 2099-01-02
  internal-chain    leaf signed by an intermediate of "AF Internal CA", served with the intermediate
  appended-leaf     an attacker's self-signed leaf, served with the real "valid" leaf appended
  forged-intermediate  an attacker's leaf naming "AF Intermediate CA" as issuer but signed by the
                    attacker's own key, served with the real intermediate appended
"""
import os
import subprocess

CASES = ["valid", "intermediate", "incomplete-chain", "wrong-host", "self-signed", "untrusted-root",
         "expired", "not-yet-valid", "internal-chain", "appended-leaf", "forged-intermediate"]

CA_CONFIG = """
[ ca ]
default_ca = af
[ af ]
database = {dir}/index.txt
new_certs_dir = {dir}/newcerts
serial = {dir}/serial
default_md = sha256
policy = any
copy_extensions = copy
unique_subject = no
[ any ]
commonName = supplied
"""

LEAF_EXT = "subjectAltName=DNS:{host}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
CA_EXT = "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n"


def make(directory):
    """Creates the matrix's certificates in directory/matrix; returns {case: (cert, key)}."""
    root = os.path.join(directory, "matrix")
    os.makedirs(os.path.join(root, "newcerts"), exist_ok=True)
    open(os.path.join(root, "index.txt"), "w").close()
    with open(os.path.join(root, "serial"), "w") as f:
        f.write("1000\n")
    with open(os.path.join(root, "ca.cnf"), "w") as f:
        f.write(CA_CONFIG.format(dir=root))

    def run(*args):
        subprocess.run(["openssl", *args], check=True, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def write(name, text):
        with open(os.path.join(root, name), "w") as f:
            f.write(text)

    def concatenate(name, parts):
        with open(os.path.join(root, name), "w") as f:
            for part in parts:
                with open(os.path.join(root, part)) as source:
                    f.write(source.read())

    def self_signed(name, subject, *extensions):
        """A self-signed certificate and its key, name.pem and name.key, with -addext extensions."""
        added = [argument for extension in extensions for argument in ("-addext", extension)]
        run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", subject,
            "-keyout", f"{name}.key", "-out", f"{name}.pem", *added)

    ca_extensions = ("basicConstraints=critical,CA:TRUE", "keyUsage=critical,keyCertSign,cRLSign")

    def request(name, subject):
        run("req", "-newkey", "rsa:2048", "-nodes", "-subj", subject, "-keyout", f"{name}.key", "-out", f"{name}.csr")

    def sign(name, ca_cert, ca_key, ext, start=None, end=None):
        write(f"{name}.ext", ext)
        if start:
            run("ca", "-batch", "-config", "ca.cnf", "-cert", ca_cert, "-keyfile", ca_key, "-in", f"{name}.csr",
                "-out", f"{name}.pem", "-startdate", start, "-enddate", end, "-extfile", f"{name}.ext", "-notext")
        else:
            run("x509", "-req", "-in", f"{name}.csr", "-CA", ca_cert, "-CAkey", ca_key, "-CAcreateserial",
                "-days", "2", "-extfile", f"{name}.ext", "-out", f"{name}.pem")

    test_ca = (os.path.join(directory, "ca.pem"), os.path.join(directory, "ca.key"))
    leaf = LEAF_EXT.format(host="localhost")

    request("valid", "/CN=localhost")
    sign("valid", *test_ca, leaf)

    request("intermediate-ca", "/CN=AF Intermediate CA")
    sign("intermediate-ca", *test_ca, CA_EXT)
    request("intermediate", "/CN=localhost")
    sign("intermediate", os.path.join(root, "intermediate-ca.pem"), os.path.join(root, "intermediate-ca.key"), leaf)
    concatenate("intermediate-full.pem", ["intermediate.pem", "intermediate-ca.pem"])

    request("wrong-host", "/CN=wrong.example")
    sign("wrong-host", *test_ca, LEAF_EXT.format(host="wrong.example"))

    write("self-signed.ext", leaf)
    self_signed("self-signed", "/CN=localhost", "subjectAltName=DNS:localhost")
    self_signed("internal-ca", "/CN=AF Internal CA", *ca_extensions)
    request("untrusted-root", "/CN=localhost")
    sign("untrusted-root", os.path.join(root, "internal-ca.pem"), os.path.join(root, "internal-ca.key"), leaf)

    request("expired", "/CN=localhost")
    sign("expired", *test_ca, leaf, "20200101000000Z", "20200102000000Z")
    request("not-yet-valid", "/CN=localhost")
    sign("not-yet-valid", *test_ca, leaf, "20990101000000Z", "20990102000000Z")

    request("internal-intermediate", "/CN=AF Internal Intermediate")
    sign("internal-intermediate", os.path.join(root, "internal-ca.pem"), os.path.join(root, "internal-ca.key"), CA_EXT)
    request("internal-chain", "/CN=localhost")
    sign("internal-chain", os.path.join(root, "internal-intermediate.pem"), os.path.join(root, "internal-intermediate.key"),
         leaf)
    concatenate("internal-chain-full.pem", ["internal-chain.pem", "internal-intermediate.pem"])

    # An attacker holds only its own keys, and appends real certificates (public) to its chain.
    self_signed("attacker", "/CN=localhost", "subjectAltName=DNS:localhost")
    self_signed("forged-ca", "/CN=AF Intermediate CA", *ca_extensions)
    request("forged-intermediate", "/CN=localhost")
    sign("forged-intermediate", os.path.join(root, "forged-ca.pem"), os.path.join(root, "forged-ca.key"), leaf)

    concatenate("appended-leaf-full.pem", ["attacker.pem", "valid.pem"])
    concatenate("forged-intermediate-full.pem", ["forged-intermediate.pem", "intermediate-ca.pem"])

    files = {case: (os.path.join(root, f"{case}.pem"), os.path.join(root, f"{case}.key")) for case in CASES}
    files["intermediate"] = (os.path.join(root, "intermediate-full.pem"), os.path.join(root, "intermediate.key"))
    files["incomplete-chain"] = (os.path.join(root, "intermediate.pem"), os.path.join(root, "intermediate.key"))
    files["internal-chain"] = (os.path.join(root, "internal-chain-full.pem"), os.path.join(root, "internal-chain.key"))
    files["appended-leaf"] = (os.path.join(root, "appended-leaf-full.pem"), os.path.join(root, "attacker.key"))
    files["forged-intermediate"] = (os.path.join(root, "forged-intermediate-full.pem"),
                                    os.path.join(root, "forged-intermediate.key"))
    return files


LOG_FORMAT = "log_format matrix '$request_uri|$http_authorization|$request_length';"


def server_blocks(directory, files, ports):
    """nginx server blocks for the cases, one port each, logging every request."""
    blocks = []
    for case in CASES:
        cert, key = files[case]  # the revocation cases add their own blocks (tls_revocation.py)
        blocks.append(f"""
    server {{
        listen 127.0.0.1:{ports[case]} ssl;
        ssl_certificate {cert};
        ssl_certificate_key {key};
        access_log {directory}/matrix-{case}.log matrix;
        location / {{ default_type text/plain; return 200 'ok {case}'; }}
    }}""")
    return LOG_FORMAT + "\n" + "".join(blocks)
