"""Small helpers shared by the CLI commands: database and server options, the channel to a server (TLS), number
types, the rich consoles."""

from __future__ import annotations

import argparse
import os
import sys
import urllib.parse
from pathlib import Path
from typing import IO, TYPE_CHECKING

from rich.console import Console

from services.core.secrets import hide_url_password, scrub

if TYPE_CHECKING:
    import grpc


class _Scrubbed:
    """A console's stream with every known secret masked: the net under ``eventstore.urls.redacted``, for a
    table cell or a message that quotes a URL or a driver's error."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return self._stream.write(scrub(text))

    def __getattr__(self, name: str) -> object:  # flush, isatty, fileno, encoding: the stream's own
        return getattr(self._stream, name)


class _Console(Console):
    @property
    def file(self) -> IO[str]:
        return _Scrubbed(super().file)  # type: ignore[return-value]  # a stand-in: writes and the rest

    @file.setter
    def file(self, new_file: IO[str]) -> None:
        Console.file.fset(self, new_file)  # type: ignore[attr-defined]

    def on_broken_pipe(self) -> None:
        # rich exits 1 here; a reader that went away (``| head``) is no failure: main() ends with 141.
        self.quiet = True
        raise BrokenPipeError


# Piped output is not cut at 80 columns: ids and outcomes stay whole for scripts and logs.
out = _Console(highlight=False, width=None if sys.stdout.isatty() else 160)
err = _Console(stderr=True, highlight=False)

DATA_DIR_ENV = "DUELHALL_DATA_DIR"
DEFAULT_SERVER = "127.0.0.1:50051"
TLS_CA_ENV = "DUELHALL_TLS_CA"
TLS_CLIENT_CERT_ENV = "DUELHALL_TLS_CLIENT_CERT"
TLS_CLIENT_KEY_ENV = "DUELHALL_TLS_CLIENT_KEY"
TLS_SERVER_NAME_ENV = "DUELHALL_TLS_SERVER_NAME"
"""The client side of ``serve --tls-*``. Not ``DUELHALL_TLS_CERT``/``_KEY``: in the server's environment (the
image's health check) those are the server's own certificate, not a client's."""


def data_dir() -> Path:
    """Where the default database lives, whatever the current directory: ``$DUELHALL_DATA_DIR``, else
    ``$XDG_DATA_HOME/duelhall``, else ``~/.local/share/duelhall``."""
    explicit = os.environ.get(DATA_DIR_ENV)
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "duelhall"


def default_database_url() -> str:
    return f"sqlite:///{data_dir() / 'duelhall.db'}"


def add_database_option(parser: argparse.ArgumentParser | argparse._MutuallyExclusiveGroup) -> None:
    # Imported by the commands that open a database only: the store's package costs a second of CPU to import.
    from eventstore.urls import DATABASE_URL_ENV

    parser.add_argument(
        "--database-url",
        default=None,
        help=f"SQLAlchemy URL (default: ${DATABASE_URL_ENV}, else duelhall.db in the data directory, "
        f"${DATA_DIR_ENV} or ~/.local/share/duelhall)",
    )


def add_server_option(parser: argparse.ArgumentParser | argparse._MutuallyExclusiveGroup) -> None:
    parser.add_argument(
        "--server",
        default=None,
        metavar="HOST:PORT",
        help=f"ask a running server (e.g. {DEFAULT_SERVER}) instead of opening the database",
    )


def add_tls_options(parser: argparse.ArgumentParser) -> None:
    """How a command that calls a server reaches one started with ``--tls-cert`` (docs/operations.md, TLS)."""
    tls = parser.add_argument_group("TLS, to a server started with --tls-cert")
    ca, cert, key, name = TLS_CA_ENV, TLS_CLIENT_CERT_ENV, TLS_CLIENT_KEY_ENV, TLS_SERVER_NAME_ENV
    tls.add_argument(
        "--tls-ca",
        metavar="PEM",
        default=os.environ.get(ca) or None,
        help=f"CA bundle the server's certificate must chain to: speak TLS (default: ${ca}, else plaintext)",
    )
    tls.add_argument(
        "--tls-client-cert",
        metavar="PEM",
        default=os.environ.get(cert) or None,
        help=f"client certificate, for a server that requires one (serve --tls-client-ca) [${cert}]",
    )
    tls.add_argument(
        "--tls-client-key", metavar="PEM", default=os.environ.get(key) or None, help=f"its private key [${key}]"
    )
    tls.add_argument(
        "--tls-server-name",
        metavar="NAME",
        default=os.environ.get(name) or None,
        help=f"the name the server's certificate must carry (default: ${name}, else the host called)",
    )


def channel(args: argparse.Namespace, address: str) -> grpc.aio.Channel:
    """The channel every command that calls a server uses: TLS when ``--tls-ca`` (or a client certificate) is
    given, mirroring ``serve --tls-cert/--tls-key/--tls-client-ca``; plaintext otherwise."""
    import grpc  # here: --help and the commands that call no server start without it

    if (args.tls_client_cert is None) != (args.tls_client_key is None):
        raise ValueError("a client certificate needs both --tls-client-cert and --tls-client-key")
    if args.tls_ca is None and args.tls_client_cert is None:
        return grpc.aio.insecure_channel(address)
    credentials = grpc.ssl_channel_credentials(
        root_certificates=Path(args.tls_ca).read_bytes() if args.tls_ca else None,
        private_key=Path(args.tls_client_key).read_bytes() if args.tls_client_key else None,
        certificate_chain=Path(args.tls_client_cert).read_bytes() if args.tls_client_cert else None,
    )
    names = [("grpc.ssl_target_name_override", args.tls_server_name)] if args.tls_server_name else []
    return grpc.aio.secure_channel(address, credentials, options=names)


def unreachable(details: str) -> str:
    """Why a call ended ``UNAVAILABLE`` before reaching the server, from gRPC's details, as one sentence."""
    if "CERTIFICATE_VERIFY_FAILED" in details:
        return "the server's certificate does not chain to --tls-ca"
    if "Hostname Verification" in details:
        return "the server's certificate does not name the host called: give the name it carries, --tls-server-name"
    if "WRONG_VERSION_NUMBER" in details:
        return "the server does not speak TLS at that address (it serves plaintext: drop --tls-ca)"
    if "handshake failed" in details:
        return "the TLS handshake with the server failed"
    if "Socket closed" in details:
        # What a TLS server does to a plaintext client, and a mutual TLS server to a client with no certificate.
        return (
            "the server closed the connection: if it serves TLS, give --tls-ca, and if it requires client "
            "certificates, --tls-client-cert and --tls-client-key"
        )
    return "cannot reach the server (is `duelhall serve` running at that address?)"


def database(args: argparse.Namespace) -> str:
    """The URL the command opens (the default data directory is created on first use); its password is from
    now on masked in every log and output line."""
    from eventstore.urls import DATABASE_URL_ENV

    url = args.database_url or os.environ.get(DATABASE_URL_ENV)
    if not url:
        data_dir().mkdir(parents=True, exist_ok=True)
        url = default_database_url()
    hide_url_password(url)
    return str(url)


def positive(text: str) -> int:
    """An argparse type: an integer of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a positive number")
    return value


def add_verb(
    verbs: argparse._SubParsersAction[argparse.ArgumentParser], name: str, summary: str
) -> argparse.ArgumentParser:
    """A verb of a command (``replay export``), its summary both its line in the command's help and its own
    ``--help``'s description."""
    return verbs.add_parser(name, help=summary, description=summary[0].upper() + summary[1:] + ".")


HTTP_PORT = 8080
"""``duelhall serve``'s HTTP port unless told otherwise: where the viewer page is served."""


def default_http(server: str) -> str:
    """The viewer's address on the host of ``--server``, at ``serve``'s default HTTP port."""
    host = server.rpartition(":")[0] or "127.0.0.1"
    return f"http://{host}:{HTTP_PORT}"


def viewer_url(http: str, match_id: str, token: str) -> str:
    """The viewer page following ``match_id`` live as the seat ``token`` opens (docs/viewer.md)."""
    return f"{http.rstrip('/')}/?{urllib.parse.urlencode({'watch': match_id, 'token': token})}"
