"""The CLI in process: exit codes and output of each command."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from services.cli.main import main


def listed_ids(url: str, capsys: pytest.CaptureFixture[str], *filters: str) -> list[str]:
    assert main(["matches", "--database-url", url, "--json", *filters]) == 0
    return [row["match_id"] for row in msgspec.json.decode(capsys.readouterr().out)]


def test_rulesets_lists_one_line_per_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulesets"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("card_monsters\tv1\t2 players") for line in lines)


def test_selfplay_in_process_finishes_and_summarises(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["selfplay", "card_monsters", "--games", "5", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "5 (5 finished)" in out and "commands/s" in out


def test_selfplay_refuses_a_bad_player_count(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["selfplay", "card_monsters", "--players", "3"])
    assert exited.value.code == 2
    assert "card_monsters takes 2 players, not 3" in capsys.readouterr().err


def test_store_selfplay_then_export_verify_show_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    assert main(["selfplay", "card_monsters", "--games", "2", "--database-url", url]) == 0
    played = capsys.readouterr().out
    stored = listed_ids(url, capsys, "--status", "ended")
    assert len(stored) == 2 and all(match_id in played for match_id in stored)  # the ids the next step takes
    match_id = stored[0]
    replay = tmp_path / "match.json"
    assert main(["replay", "export", match_id, "-o", str(replay), "--database-url", url]) == 0
    assert main(["replay", "verify", str(replay)]) == 0
    assert "replay verified" in capsys.readouterr().out
    assert main(["replay", "show", str(replay), "--as", "1", "--step", "12"]) == 0
    board = capsys.readouterr().out
    assert "step 12/" in board and "as: seat 1" in board
    other = f"sqlite:///{tmp_path / 'other.db'}"
    assert main(["replay", "import", str(replay), "--database-url", other]) == 0
    assert f"imported: {match_id}" in capsys.readouterr().out
    assert main(["replay", "import", str(replay), str(replay), "--database-url", other]) == 0
    assert capsys.readouterr().out.count(f"already stored: {match_id}") == 2


def test_the_match_list_rebuilds_from_the_events(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    assert main(["selfplay", "card_monsters", "--games", "3", "--database-url", url]) == 0
    capsys.readouterr()
    before = listed_ids(url, capsys)
    assert main(["matches", "--database-url", url, "--json", "--rebuild"]) == 0
    captured = capsys.readouterr()
    rebuilt = msgspec.json.decode(captured.out)
    assert [row["match_id"] for row in rebuilt] == before and len(before) == 3
    assert all(row["status"] == "ended" and row["outcome"] for row in rebuilt)
    assert "rebuilt the match list from the events: 3 matches" in captured.err


def test_verify_names_the_first_bad_version(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    assert main(["selfplay", "card_monsters", "--games", "1", "--database-url", url]) == 0
    capsys.readouterr()
    match_id = listed_ids(url, capsys)[0]
    replay = tmp_path / "match.json"
    assert main(["replay", "export", match_id, "-o", str(replay), "--database-url", url]) == 0
    document = msgspec.json.decode(replay.read_bytes())
    document["events"][4]["data"] += " "
    replay.write_bytes(msgspec.json.encode(document))
    assert main(["replay", "verify", str(replay)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "chain at version 5" in out and "1 of 1 replay files failed" in out
    # Nothing of a file that does not verify is shown, on the terminal or in the viewer.
    for command in (["replay", "show", str(replay)], ["view", str(replay)]):
        assert main(command) == 1
        captured = capsys.readouterr()
        assert (
            captured.out == "" and f"{replay} does not verify, so it is not shown: chain at version 5" in captured.err
        )


def test_serve_refuses_a_taken_http_port_in_one_sentence(tmp_path: Path) -> None:
    # A process of its own: serve configures the process's logging.
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        done = subprocess.run(
            [
                str(Path(sys.executable).parent / "duelhall"),
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--http",
                f"127.0.0.1:{port}",
                "--database-url",
                f"sqlite:///{tmp_path / 'db.sqlite'}",
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 1
    assert done.stderr == f"duelhall: cannot listen for HTTP on 127.0.0.1:{port}: Address already in use\n"


@pytest.mark.parametrize(
    ("argv", "unloaded"),
    [
        (["--version"], ["sqlalchemy", "grpc", "engine.registry", "services.server", "rich"]),
        (["--help"], ["sqlalchemy", "grpc", "engine.registry", "services.server", "rich"]),
        (["tournament", "--help"], ["sqlalchemy", "engine.registry", "services.server"]),
    ],
)
def test_the_command_line_imports_only_what_the_chosen_command_needs(argv: list[str], unloaded: list[str]) -> None:
    """``--version`` and ``--help`` start at once, and a tournament command loads no store and no rules: every
    CLI call used to import the whole server (about 2 s of CPU)."""
    probe = (
        "import sys\nfrom services.cli.main import main\n"
        f"try:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
        f"print([name for name in {unloaded!r} if name in sys.modules])"
    )
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert run.stdout.splitlines()[-1] == "[]"
