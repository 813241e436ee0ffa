"""``scripts/under-load``: the command runs beside busy processes, up to RUNS times, stopping at the first
failure, with its status; the busy processes end with the script."""

from __future__ import annotations

import subprocess
from pathlib import Path

SCRIPT = Path(__file__).parent.parent / "scripts" / "under-load"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPT), *args], capture_output=True, text=True, timeout=60, check=False)


def test_runs_the_command_each_time_beside_the_busy_processes_which_end_with_it(tmp_path: Path) -> None:
    seen = tmp_path / "siblings"
    # The command lists its siblings: the busy processes the script started.
    done = _run("-n", "2", "-r", "3", "--", "sh", "-c", f"ps -o pid= --ppid $PPID >> {seen}")
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("exited 0") == 3 and "beside 2 busy processes" in done.stderr
    runs = seen.read_text().split()
    siblings = {int(pid) for pid in runs}
    assert len(runs) == 3 * 3  # two busy processes and the listing's own ps, each run
    for pid in siblings:  # gone (a pid reused since would be another command): none is left spinning
        cmdline = Path(f"/proc/{pid}/cmdline")
        assert not cmdline.exists() or b"while :" not in cmdline.read_bytes()


def test_stops_at_the_first_failure_with_its_status(tmp_path: Path) -> None:
    count = tmp_path / "count"
    done = _run("-n", "1", "-r", "5", "--", "sh", "-c", f"echo run >> {count}; exit 3")
    assert done.returncode == 3
    assert count.read_text().splitlines() == ["run"]
    assert "run 1 of 5 exited 3" in done.stderr


def test_without_a_command_it_says_how_to_call_it() -> None:
    done = _run("-n", "1")
    assert done.returncode == 2 and "usage: scripts/under-load" in done.stderr
