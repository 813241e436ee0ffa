"""Certificates for TLS tests: a CA, a server certificate for 127.0.0.1 and localhost, a client certificate."""

from __future__ import annotations

import datetime
import ipaddress
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _pem_key(key: ec.EllipticCurvePrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


class Certificates:
    """Writes ``ca.pem``, ``server.pem``/``server.key`` and ``client.pem``/``client.key`` into ``folder``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        now = datetime.datetime.now(datetime.UTC)
        self._ca_key = ec.generate_private_key(ec.SECP256R1())
        authority = _name("duelhall test CA")
        self._ca = (
            x509.CertificateBuilder()
            .subject_name(authority)
            .issuer_name(authority)
            .public_key(self._ca_key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(self._ca_key, hashes.SHA256())
        )
        self.ca = folder / "ca.pem"
        self.ca.write_bytes(self._ca.public_bytes(serialization.Encoding.PEM))
        self.server_cert, self.server_key = self._issue(
            "server", [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
        )
        self.client_cert, self.client_key = self._issue("client", [x509.DNSName("client")])

    def _issue(self, name: str, alternatives: list[x509.GeneralName]) -> tuple[Path, Path]:
        key = ec.generate_private_key(ec.SECP256R1())
        now = datetime.datetime.now(datetime.UTC)
        cert = (
            x509.CertificateBuilder()
            .subject_name(_name(name))
            .issuer_name(self._ca.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName(alternatives), critical=False)
            .sign(self._ca_key, hashes.SHA256())
        )
        cert_path, key_path = self.folder / f"{name}.pem", self.folder / f"{name}.key"
        cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
        key_path.write_bytes(_pem_key(key))
        return cert_path, key_path
