"""The Dockerfile passes hadolint; compose.yaml's start-up sequence runs as plain processes and serves."""

from __future__ import annotations

import json
import os
import re
import shlex
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import grpc
import pytest
import yaml

from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from tests.postgres import throwaway_database
from tests.services.client import create_match

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
VARIABLES = {"POSTGRES_PASSWORD": "compose-pw", "DUELHALL_ADMIN_TOKEN": "compose-admin"}


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's (instruction, arguments), continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n\s*", " ", (ROOT / "Dockerfile").read_text())
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def final_stage() -> list[tuple[str, str]]:
    steps = instructions()
    last = max(i for i, (name, _) in enumerate(steps) if name == "FROM")
    return steps[last:]


def image_environment() -> dict[str, str]:
    env: dict[str, str] = {}
    for name, arguments in final_stage():
        if name == "ENV":
            env.update(pair.split("=", 1) for pair in shlex.split(arguments))
    env.pop("PATH", None)
    return env


def interpolate(value: str) -> str:
    """Compose's ``${VAR:-default}`` and ``${VAR:?message}`` with the test's variables."""

    def one(match: re.Match[str]) -> str:
        name, kind, rest = match.group(1), match.group(2), match.group(3)
        if name in VARIABLES:
            return VARIABLES[name]
        if kind == ":?":
            raise AssertionError(f"compose needs {name}: {rest}")
        return rest

    return re.sub(r"\$\{(\w+)(:-|:\?)([^}]*)\}", one, value)


def test_the_dockerfile_passes_hadolint() -> None:
    done = subprocess.run([str(BIN / "hadolint"), "Dockerfile"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_image_runs_the_console_script_as_a_user_with_a_health_check() -> None:
    stage = dict(final_stage())
    assert re.fullmatch(r"[1-9]\d*(:\d+)?", stage["USER"])
    assert stage["ENTRYPOINT"] == '["duelhall"]' and stage["CMD"] == '["serve"]'
    assert stage["HEALTHCHECK"].endswith('CMD ["duelhall", "health"]')
    assert 'duelhall = "services.cli.main:main"' in (ROOT / "pyproject.toml").read_text()


def start_order(services: dict[str, Any]) -> list[str]:
    """Services in dependency order (compose's ``depends_on``)."""
    order: list[str] = []

    def visit(name: str) -> None:
        if name not in order:
            for dependency in services[name].get("depends_on", {}):
                visit(dependency)
            order.append(name)

    for name in sorted(services):
        visit(name)
    return order


def one_shot(services: dict[str, Any]) -> set[str]:
    return {
        name
        for service in services.values()
        for name, wait in service.get("depends_on", {}).items()
        if wait.get("condition") == "service_completed_successfully"
    }


def test_every_replica_publishes_each_port_it_listens_on() -> None:
    """gRPC, HTTP (the Connect API and the browser page) and metrics: one not published is unreachable."""
    services = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    replicas = [s for name, s in services.items() if name.startswith("duelhall-")]
    assert len(replicas) == 2
    published = []
    for service in replicas:
        env = service["environment"]
        listening = {env[v].rsplit(":", 1)[1] for v in ("DUELHALL_LISTEN", "DUELHALL_HTTP", "DUELHALL_METRICS")}
        assert {port.split(":")[1] for port in service["ports"]} == listening
        published += [port.split(":")[0] for port in service["ports"]]
    assert len(published) == len(set(published))  # no host port taken twice


@pytest.mark.postgres
async def test_the_compose_start_up_sequence_as_processes() -> None:
    services = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]
    order = start_order(services)
    assert order[0] == "postgres" and one_shot(services) == {"migrate"}
    replicas = [name for name in order if name not in one_shot(services) and name != "postgres"]
    assert len(replicas) == 2
    with throwaway_database("duelhall_compose") as database:
        local = database.replace("postgresql://postgres@", f"postgresql://postgres:{VARIABLES['POSTGRES_PASSWORD']}@")
        running: list[tuple[subprocess.Popen[str], str]] = []
        try:
            for name in order[1:]:
                service = services[name]
                env = image_environment() | {k: interpolate(str(v)) for k, v in service["environment"].items()}
                assert env["DUELHALL_DATABASE_URL"].split("@", 1)[1] == "postgres:5432/duelhall"
                env["DUELHALL_DATABASE_URL"] = local
                if name in one_shot(services):
                    done = subprocess.run(
                        [str(BIN / "duelhall"), *service["command"]],
                        capture_output=True,
                        text=True,
                        timeout=120,
                        env=os.environ | env,
                    )
                    assert done.returncode == 0, done.stderr
                    assert "compose-pw" not in done.stdout + done.stderr
                    continue
                env |= {
                    "DUELHALL_LISTEN": "127.0.0.1:0",
                    "DUELHALL_METRICS": "127.0.0.1:0",
                    "DUELHALL_HTTP": "127.0.0.1:0",
                }
                proc = subprocess.Popen(
                    [str(BIN / "duelhall"), *service["command"]],
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    text=True,
                    env=os.environ | env,
                )
                assert proc.stdout is not None
                line = proc.stdout.readline()
                assert "listening on" in line, line
                running.append((proc, line.split()[-1]))
            program, *arguments = json.loads(dict(final_stage())["HEALTHCHECK"].split("CMD", 1)[1])
            for _, address in running:
                checked = subprocess.run(
                    [str(BIN / program), *arguments, "--server", address], capture_output=True, text=True, timeout=30
                )
                assert checked.returncode == 0 and "SERVING" in checked.stdout, checked.stdout
            async with (
                grpc.aio.insecure_channel(running[0][1]) as first,
                grpc.aio.insecure_channel(running[1][1]) as second,
            ):
                created = await create_match(pb_grpc.MatchServiceStub(first))
                seen = await pb_grpc.MatchServiceStub(second).GetMatch(
                    pb.GetMatchRequest(match_id=created.match_id, min_version=created.version)
                )
                assert seen.version == created.version
        finally:
            for proc, _ in running:
                proc.send_signal(signal.SIGTERM)
            codes = [proc.wait(60) for proc, _ in running]
            for proc, _ in running:
                assert proc.stdout is not None
                proc.stdout.close()
        assert codes == [0, 0]
