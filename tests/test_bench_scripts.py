"""Every benchmark script runs end to end, with tiny parameters, and prints its table.

Speed is measured by running the scripts, never judged here; this only keeps them working as the code moves
(a benchmark that no longer starts is found here, not on the day its figure is needed).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.postgres import require_postgres

ROOT = Path(__file__).resolve().parent.parent

RUNS = {
    "bots": ["--matches", "2", "--rulesets", "aq,card_monsters", "--iterations", "4", "--jobs", "2"],
    "bot_seats": ["--matches", "2", "--rulesets", "duel,wulin"],
    "capacity": ["--hot", "20", "--events", "300", "--tail", "20", "--loads", "2"],
    "engine_speed": ["--games", "1", "--ruleset", "duel"],
    "handlers": ["--seconds", "0.5", "--matches", "2", "--repeat", "1"],
    "instances": ["--matches", "2", "--seconds", "0.5", "--repeat", "1", "--rate", "100"],
    "fanout": [
        "--spectators",
        "3",
        "--matches",
        "0",
        "--seconds",
        "0.5",
        "--processes",
        "1",
        "--bare",
        "--batched",
        "--split",
    ],
    "lifecycle": ["--games", "2", "--repeat", "1"],
    "pairing": ["--sizes", "16"],
    "search_overruns": ["card_monsters", "--matches", "1", "--budget", "0.01"],
    "service": ["--backend", "sqlite", "--matches", "2", "--seconds", "0.5", "--repeat", "1", "--rate", "200"],
    "store": ["--backends", "sqlite", "--commands", "20", "--peer-commands", "20", "--runs", "1", "--repeat", "1"],
}

ON_POSTGRES = {"instances"}
"""Scripts that measure PostgreSQL only (DUELHALL_TEST_POSTGRES_URL)."""


@pytest.mark.parametrize("script", sorted(RUNS))
def test_the_benchmark_runs_and_prints_its_figures(script: str, tmp_path: Path) -> None:
    if script in ON_POSTGRES:
        require_postgres()
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / f"{script}.py"), *RUNS[script]],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "┏" in done.stdout, done.stdout[-2000:]  # rich drew its table


def test_every_benchmark_script_is_run_here() -> None:
    scripts = {path.stem for path in (ROOT / "bench").glob("*.py")} - {"__init__", "bare_server"}
    assert scripts == set(RUNS)
