"""Every serve option from the environment, each listed in the README's table, and the client commands' TLS
variables in the other; flags win over variables."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from services.cli.common import TLS_CA_ENV, TLS_CLIENT_CERT_ENV, TLS_CLIENT_KEY_ENV, TLS_SERVER_NAME_ENV
from services.cli.environment import from_environment, options, variable
from services.cli.main import parser

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent / "duelhall"


def command_parser(command: str) -> argparse.ArgumentParser:
    commands = next(a for a in parser()._actions if isinstance(a, argparse._SubParsersAction))
    return commands.choices[command]


def test_the_readme_tables_list_every_serve_variable_and_the_client_tls_ones() -> None:
    listed = set(re.findall(r"^\| `(DUELHALL_[A-Z_]+)` \|", (ROOT / "README.md").read_text(), re.MULTILINE))
    # The client's variables follow the same rule: DUELHALL_ and the option's name.
    client = {variable(action) for action in options(command_parser("health")) if action.dest.startswith("tls_")}
    assert client == {TLS_CA_ENV, TLS_CLIENT_CERT_ENV, TLS_CLIENT_KEY_ENV, TLS_SERVER_NAME_ENV}
    assert listed == {variable(action) for action in options(command_parser("serve"))} | client


def test_variables_set_defaults_and_flags_win(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DUELHALL_LISTEN", "0.0.0.0:7000")
    monkeypatch.setenv("DUELHALL_DRAIN_SECONDS", "2.5")
    monkeypatch.setenv("DUELHALL_MIGRATE", "0")
    monkeypatch.setenv("DUELHALL_LOG_FORMAT", "json")
    args = parser().parse_args(["serve", "--log-format", "console"])
    assert (args.listen, args.drain_seconds, args.migrate, args.log_format) == ("0.0.0.0:7000", 2.5, False, "console")


def test_a_bad_value_names_its_variable(capsys: pytest.CaptureFixture[str]) -> None:
    bad = argparse.ArgumentParser(prog="serve")
    bad.add_argument("--log-format", choices=("console", "json"), default="console")
    with pytest.raises(SystemExit) as usage:
        from_environment(bad, {"DUELHALL_LOG_FORMAT": "xml"})
    assert usage.value.code == 2
    assert "DUELHALL_LOG_FORMAT='xml': choose from console, json" in capsys.readouterr().err


def test_a_server_configured_only_by_the_environment(tmp_path: Path) -> None:
    env = os.environ | {
        "PYTHONUNBUFFERED": "1",
        "DUELHALL_LISTEN": "127.0.0.1:0",
        "DUELHALL_DATABASE_URL": f"sqlite:///{tmp_path / 'env.db'}",
        "DUELHALL_METRICS": "127.0.0.1:0",
        "DUELHALL_LOG_FORMAT": "json",
        "DUELHALL_HTTP": "127.0.0.1:0",
    }
    with subprocess.Popen(
        [str(BIN), "serve"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    ) as server:
        assert server.stdout is not None
        first, second = server.stdout.readline(), server.stdout.readline()
        server.terminate()
        _, logs = server.communicate(timeout=30)
    assert first.startswith("duelhall listening on 127.0.0.1:") and second.startswith("duelhall metrics on")
    assert server.returncode == 0 and logs.startswith("{") and "env.db" in logs
