"""``duelhall tournament``: the organiser's commands against a real server."""

from __future__ import annotations

import asyncio

import pytest

from services.cli.main import main
from services.server import Running
from tests.services.conftest import ADMIN_TOKEN


async def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = await asyncio.to_thread(main, ["tournament", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


async def test_an_organiser_runs_rounds_from_the_command_line(
    server: Running, capsys: pytest.CaptureFixture[str]
) -> None:
    where = ["--server", f"127.0.0.1:{server.port}"]
    admin = [*where, "--admin-token", ADMIN_TOKEN]
    status, out, _ = await _cli(
        capsys,
        "create",
        "Friday cup",
        "--ruleset",
        "card_monsters",
        "--rounds",
        "2",
        "--tiebreak",
        "ygo",
        "--seed",
        "02" * 32,
        *admin,
    )
    assert status == 0
    tid = out.strip()
    for player in ("ann", "bob", "cat", "dan"):
        status, out, err = await _cli(capsys, "register", tid, player, "--deck", '{"deck": "starter_a"}', *admin)
        assert status == 0 and "shown once" in err and len(out.strip()) > 20
    status, out, _ = await _cli(capsys, "start", tid, *admin)
    assert status == 0 and "round 1 (swiss)" in out
    status, _, err = await _cli(capsys, "pair", tid, *admin)
    assert status == 1 and err.strip() == "round 1 is not finished (ROUND_NOT_FINISHED)"
    status, _, err = await _cli(capsys, "pair", tid, *where, "--admin-token", "wrong")
    assert status == 1 and "(ADMIN_REQUIRED)" in err
    for table in ("1", "2"):
        status, out, _ = await _cli(
            capsys, "report", tid, "1", table, "1", "0", "--by", "judge", "--why", "slip", *admin
        )
        assert status == 0 and out.startswith("entered: round 1 table")
    status, out, _ = await _cli(capsys, "standings", tid, *where)
    assert status == 0 and "OMW" in out and "OOMW" in out and out.count("3 ") >= 2
    status, out, _ = await _cli(capsys, "drop", tid, "dan", "--by", "judge", "--why", "left", *admin)
    assert status == 0 and out.strip() == "dropped: dan"
    status, out, _ = await _cli(capsys, "pair", tid, *admin)
    assert status == 0 and "round 2 (swiss)" in out and "(bye)" in out and "dan" not in out
    status, out, _ = await _cli(capsys, "show", tid, *where)
    assert status == 0 and "Friday cup" in out and "2 of 2 (swiss)" in out and "1 dropped" in out
    status, _, err = await _cli(capsys, "cut", tid, *admin)
    assert status == 1 and "(NO_CUT)" in err


async def test_an_organiser_shows_each_games_spectator_and_caster_tokens(
    server: Running, capsys: pytest.CaptureFixture[str]
) -> None:
    where = ["--server", f"127.0.0.1:{server.port}"]
    admin = [*where, "--admin-token", ADMIN_TOKEN]
    audience = ["--spectators", "token", "--caster-delay", "60", "--decklists", "open"]
    status, out, _ = await _cli(
        capsys, "create", "cup", "--ruleset", "card_monsters", "--rounds", "1", *audience, *admin
    )
    assert status == 0
    tid = out.strip()
    for player in ("ann", "bob"):
        assert (await _cli(capsys, "register", tid, player, *admin))[0] == 0
    assert (await _cli(capsys, "start", tid, *admin))[0] == 0
    status, out, _ = await _cli(capsys, "show", tid, "--tokens", *admin)
    assert status == 0
    tokens = out[out.index("tokens") :]
    row = next(line for line in tokens.splitlines() if line.startswith("│ 1 "))
    cells = [cell.strip() for cell in row.strip("│ ").split("│")]
    assert len(cells) == 5 and all(len(cell) == 32 for cell in cells[2:]), cells
    status, out, _ = await _cli(capsys, "show", tid, *admin)
    assert status == 0 and "tokens" not in out


async def test_an_organiser_seeds_edits_lists_and_prints_the_final_placings(
    server: Running, capsys: pytest.CaptureFixture[str]
) -> None:
    where = ["--server", f"127.0.0.1:{server.port}"]
    admin = [*where, "--admin-token", ADMIN_TOKEN]
    created = ["--ruleset", "card_monsters", "--rounds", "1", "--chooser-seconds", "90", "--label", "league=north"]
    status, out, _ = await _cli(capsys, "create", "north cup", *created, *admin)
    assert status == 0
    tid = out.strip()
    for seed, player in enumerate(("ann", "bob", "cat", "dan"), start=1):
        assert (await _cli(capsys, "register", tid, player, "--seed", str(seed), *admin))[0] == 0
    status, _, err = await _cli(capsys, "register", tid, "eve", "--seed", "1", *admin)
    assert status == 1 and "(SEED_TAKEN)" in err
    status, out, _ = await _cli(capsys, "start", tid, *admin)
    assert status == 0 and out.index("ann") < out.index("cat") < out.index("bob") < out.index("dan")
    status, out, _ = await _cli(capsys, "edit", tid, "swap", "cat", "dan", "--by", "judge", "--why", "seating", *admin)
    assert status == 0 and out.index("ann") < out.index("dan") < out.index("bob") < out.index("cat")
    status, out, _ = await _cli(capsys, "list", "--label", "league=north", "--status", "running", *where)
    assert status == 0 and tid in out and "north cup" in out and "league=north" in out
    status, out, _ = await _cli(capsys, "list", "--label", "league=south", *where)
    assert status == 0 and tid not in out
    for table, result in (("1", ("0", "1")), ("2", ("1", "0"))):
        status, _, _ = await _cli(capsys, "report", tid, "1", table, *result, "--by", "judge", "--why", "paper", *admin)
        assert status == 0
    status, out, _ = await _cli(capsys, "standings", tid, *where)
    placings = out[out.index("final placings") :]
    assert status == 0 and max(placings.index("dan"), placings.index("bob")) < min(
        placings.index("ann"), placings.index("cat")
    )
    status, _, err = await _cli(capsys, "edit", tid, "bye", "ann", "--by", "judge", "--why", "late", *admin)
    assert status == 1 and "(TOURNAMENT_ENDED)" in err
