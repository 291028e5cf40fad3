"""Certificates, CRLs, OCSP responders and nginx servers for the revocation cases of the trust matrix.

A revocation CA ("AF Revocation CA", signed by the test root CA so default validation passes) issues
the leaves. Every certificate names where its status is published: a CRL distribution point on a
static nginx server, and an OCSP responder (`openssl ocsp`, one for the root's certificates, one for
the revocation CA's). The revocation CA's database is `<directory>/revocation/ca/index.txt`; tests
revoke through `openssl ca -config <directory>/revocation/ca.cnf -revoke <cert>`, which the
responder notices.

Cases (HTTPS servers, host "localhost", logging like the rest of the matrix):
  rev-good          not revoked; CRLs and OCSP answer for the whole chain
  rev-revoked       revoked: in the CRL and at the responder
  rev-no-crl        its CRL distribution point answers 404; OCSP says good
  rev-ocsp-down     its OCSP responder does not listen; the CRL says good
  rev-stapled-good  responder down, CRL good, the server staples a "good" OCSP answer
  rev-stapled-revoked  responder down, CRL good, the server staples a "revoked" OCSP answer (TLS 1.2 only)
  rev-revocable     good at first; a test revokes it (no keep-alive: each request connects anew)
"""
import os
import subprocess

CASES = ["rev-good", "rev-revoked", "rev-no-crl", "rev-ocsp-down", "rev-stapled-good", "rev-stapled-revoked",
         "rev-revocable"]

CA_CONFIG = """
[ ca ]
default_ca = af
[ af ]
database = {db}/index.txt
new_certs_dir = {db}/newcerts
serial = {db}/serial
crlnumber = {db}/crlnumber
default_md = sha256
default_crl_days = 2
policy = any
copy_extensions = copy
unique_subject = no
[ any ]
commonName = supplied
"""


def make(directory, crl_port, root_ocsp_port, ocsp_port, dead_port):
    """Creates the certificates and CRLs in directory/revocation; returns ({case: (cert, key)}, responders)
    where responders are the argument lists of the two `openssl ocsp` processes to start."""
    root = os.path.join(directory, "revocation")
    crls = os.path.join(root, "crl")
    os.makedirs(crls, exist_ok=True)

    def run(*args):
        subprocess.run(["openssl", *args], check=True, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def write(name, text):
        with open(os.path.join(root, name), "w") as f:
            f.write(text)

    def database(name):
        db = os.path.join(root, name)
        os.makedirs(os.path.join(db, "newcerts"), exist_ok=True)
        open(os.path.join(db, "index.txt"), "w").close()
        for counter in ["serial", "crlnumber"]:
            with open(os.path.join(db, counter), "w") as f:
                f.write("2000\n" if name == "ca" else "3000\n")
        write(f"{name}.cnf", CA_CONFIG.format(db=db))

    def issue(name, subject, config, ca_cert, ca_key, ext):
        run("req", "-newkey", "rsa:2048", "-nodes", "-subj", subject, "-keyout", f"{name}.key", "-out", f"{name}.csr")
        write(f"{name}.ext", ext)
        run("ca", "-batch", "-config", config, "-cert", ca_cert, "-keyfile", ca_key, "-in", f"{name}.csr",
            "-out", f"{name}.pem", "-days", "2", "-extfile", f"{name}.ext", "-notext")

    def published(crl, ocsp):
        return (f"crlDistributionPoints=URI:http://127.0.0.1:{crl_port}/{crl}\n"
                f"authorityInfoAccess=OCSP;URI:http://127.0.0.1:{ocsp}\n")

    test_root = (os.path.join(directory, "ca.pem"), os.path.join(directory, "ca.key"))
    database("root")  # the test root's revocation database (it revokes nothing)
    database("ca")
    ca_ext = "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n"
    issue("revocation-ca", "/CN=AF Revocation CA", "root.cnf", *test_root, ca_ext + published("root.crl", root_ocsp_port))
    ca = ("revocation-ca.pem", "revocation-ca.key")
    issue("ocsp-signer", "/CN=AF Revocation OCSP", "ca.cnf", *ca,
          "basicConstraints=CA:FALSE\nextendedKeyUsage=OCSPSigning\n")

    leaf = "subjectAltName=DNS:localhost\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n"
    sources = {
        "rev-good": ("revocation-ca.crl", ocsp_port),
        "rev-revoked": ("revocation-ca.crl", ocsp_port),
        "rev-no-crl": ("missing.crl", ocsp_port),
        "rev-ocsp-down": ("revocation-ca.crl", dead_port),
        "rev-stapled-good": ("revocation-ca.crl", dead_port),
        "rev-stapled-revoked": ("revocation-ca.crl", dead_port),
        "rev-revocable": ("revocation-ca.crl", ocsp_port),
    }
    for case in CASES:
        crl, ocsp = sources[case]
        issue(case, "/CN=localhost", "ca.cnf", *ca, leaf + published(crl, ocsp))
        with open(os.path.join(root, f"{case}-full.pem"), "w") as f:
            for name in [f"{case}.pem", "revocation-ca.pem"]:
                with open(os.path.join(root, name)) as part:
                    f.write(part.read())

    # The stapled answers come from a scratch database, so the real one (and the CRL) stay "good".
    run("ca", "-config", "ca.cnf", "-cert", ca[0], "-keyfile", ca[1], "-revoke", "rev-revoked.pem")
    scratch = os.path.join(root, "staple-index.txt")
    with open(os.path.join(root, "ca", "index.txt")) as f:
        lines = f.read().splitlines()
    serial = subprocess.run(["openssl", "x509", "-noout", "-serial", "-in", "rev-stapled-revoked.pem"], cwd=root,
                            check=True, capture_output=True, text=True).stdout.strip().split("=")[1]
    with open(scratch, "w") as f:
        for line in lines:
            fields = line.split("\t")
            if fields[3] == serial:
                fields[0], fields[2] = "R", "250101000000Z"
            f.write("\t".join(fields) + "\n")
    with open(scratch + ".attr", "w") as f:
        f.write("unique_subject = no\n")
    for case in ["rev-stapled-good", "rev-stapled-revoked"]:
        run("ocsp", "-index", scratch, "-rsigner", "ocsp-signer.pem", "-rkey", "ocsp-signer.key", "-CA", ca[0],
            "-issuer", ca[0], "-cert", f"{case}.pem", "-respout", f"{case}.ocsp", "-ndays", "2")

    for name, (cert, key) in {"root": test_root, "ca": ca}.items():
        crl = "root.crl" if name == "root" else "revocation-ca.crl"
        run("ca", "-gencrl", "-config", f"{name}.cnf", "-cert", cert, "-keyfile", key, "-out", f"{name}.crl.pem")
        run("crl", "-in", f"{name}.crl.pem", "-outform", "DER", "-out", os.path.join(crls, crl))

    responders = [
        ["ocsp", "-index", os.path.join(root, "root", "index.txt"), "-port", str(root_ocsp_port),
         "-rsigner", test_root[0], "-rkey", test_root[1], "-CA", test_root[0], "-ignore_err"],
        ["ocsp", "-index", os.path.join(root, "ca", "index.txt"), "-port", str(ocsp_port),
         "-rsigner", os.path.join(root, "ocsp-signer.pem"), "-rkey", os.path.join(root, "ocsp-signer.key"),
         "-CA", os.path.join(root, ca[0]), "-ignore_err"],
    ]
    files = {case: (os.path.join(root, f"{case}-full.pem"), os.path.join(root, f"{case}.key")) for case in CASES}
    return files, responders


def server_blocks(directory, files, ports, crl_port):
    """nginx server blocks: the CRL distribution server and one HTTPS server per case."""
    root = os.path.join(directory, "revocation")
    blocks = [f"""
    server {{
        listen 127.0.0.1:{crl_port};
        location / {{ root {root}/crl; default_type application/pkix-crl; }}
    }}"""]
    for case in CASES:
        cert, key = files[case]
        stapling = ""
        if case.startswith("rev-stapled"):
            stapling = f"ssl_stapling on; ssl_stapling_file {root}/{case}.ocsp;"
        if case == "rev-stapled-revoked":  # TLS 1.2 staples in a later message than 1.3: test both
            stapling += " ssl_protocols TLSv1.2;"
        keepalive = "keepalive_timeout 0;" if case == "rev-revocable" else ""
        blocks.append(f"""
    server {{
        listen 127.0.0.1:{ports[case]} ssl;
        ssl_certificate {cert};
        ssl_certificate_key {key};
        {stapling}
        {keepalive}
        access_log {directory}/matrix-{case}.log matrix;
        location / {{ default_type text/plain; return 200 'ok {case}'; }}
    }}""")
    return "".join(blocks)
