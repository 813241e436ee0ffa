"""``duelhall tournament``: the organiser's commands against a real server."""

from __future__ import annotations

import asyncio
import json

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


async def test_a_player_runs_their_own_tournament_life_from_the_command_line(
    server: Running, capsys: pytest.CaptureFixture[str]
) -> None:
    where = ["--server", f"127.0.0.1:{server.port}"]
    admin = [*where, "--admin-token", ADMIN_TOKEN]
    status, out, _ = await _cli(
        capsys, "create", "cup", "--ruleset", "card_monsters", "--rounds", "1", "--json", "--seed", "03" * 32, *admin
    )
    assert status == 0
    created = json.loads(out)
    tid = created["tournament_id"]
    assert created["deck_rule"] == "any" and created["status"] == "registration"
    tokens = {}
    for player in ("ann", "bob"):
        status, out, _ = await _cli(capsys, "register", tid, player, "--json", *admin)
        assert status == 0
        tokens[player] = json.loads(out)["player_token"]
    # A deck that is not JSON is refused before any call, one the ruleset refuses by the server: both name --deck.
    status, _, err = await _cli(capsys, "register", tid, "cat", "--deck", "starter_a", *admin)
    assert status == 2 and err.startswith("--deck: not JSON") and '{"deck": "starter_a"}' in err
    status, _, err = await _cli(capsys, "register", tid, "cat", "--deck", '{"deck": "nope"}', *admin)
    assert status == 1 and err.startswith("--deck: ") and "(DECK_UNKNOWN_PRESET)" in err and "expected" in err
    status, out, _ = await _cli(capsys, "check-in", tid, "ann", f"--token={tokens['ann']}", "--json", *where)
    assert status == 0 and json.loads(out)["players"][0]["checked_in"]
    status, _, err = await _cli(capsys, "check-in", tid, "bob", f"--token={tokens['ann']}", *where)
    assert status == 1 and "(TOKEN_INVALID)" in err
    status, out, _ = await _cli(capsys, "check-in", tid, "bob", f"--token={tokens['bob']}", *where)
    assert status == 0 and out.strip() == "checked in: bob"
    status, out, _ = await _cli(capsys, "start", tid, "--json", *admin)
    assert status == 0 and json.loads(out)["tables"][0]["a"] in ("ann", "bob")
    status, out, err = await _cli(capsys, "seat", tid, "ann", f"--token={tokens['ann']}", *where)
    match_id, seat_token = out.split()
    assert status == 0 and len(match_id) == 32 and seat_token and "against bob" in err
    status, out, _ = await _cli(capsys, "show", tid, *admin)
    assert status == 0 and match_id in out  # the whole id, not a prefix
    status, out, _ = await _cli(capsys, "seat", tid, "bob", f"--token={tokens['bob']}", "--json", *where)
    assert status == 0 and json.loads(out)["match_id"] == match_id
    # The organiser re-issues ann's token: the old one stops working.
    status, out, err = await _cli(capsys, "reissue", tid, "ann", "--by", "desk", "--why", "lost", *admin)
    assert status == 0 and "new token" in err
    new = out.strip()
    status, _, err = await _cli(capsys, "seat", tid, "ann", f"--token={tokens['ann']}", *where)
    assert status == 1 and "(TOKEN_INVALID)" in err
    assert (await _cli(capsys, "seat", tid, "ann", f"--token={new}", *where))[0] == 0
    status, _, err = await _cli(capsys, "choose-first", tid, "ann", "ann", f"--token={new}", *where)
    assert status == 1 and "(GAME_NOT_PLAYED)" in err
    status, out, _ = await _cli(capsys, "report", tid, "1", "1", "1", "0", "--by", "j", "--why", "w", "--json", *admin)
    assert status == 0 and json.loads(out)["status"] == "ended"
    # The feed of an ended tournament: every entry, then the end; a page of the audit trail, then the rest.
    status, out, _ = await _cli(capsys, "watch", tid, "--json", *where)
    entries = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and [int(e["version"]) for e in entries] == list(range(1, len(entries) + 1))
    assert entries[-1]["type"] == "TournamentEnded"
    status, out, _ = await _cli(capsys, "watch", tid, "--player", "bob", f"--token={tokens['bob']}", *where)
    assert status == 0 and "game 1: " in out and "the tournament ended" in out
    status, out, err = await _cli(capsys, "events", tid, "--limit", "3", "--json", *admin)
    page = json.loads(out)
    assert status == 0 and len(page["events"]) == 3 and int(page["next_version"]) == 4
    status, out, _ = await _cli(capsys, "events", tid, "--limit", "3", "--all", "--json", *admin)
    assert status == 0 and sum(len(json.loads(line)["events"]) for line in out.splitlines()) == len(entries)
    status, out, _ = await _cli(capsys, "standings", tid, "--json", *where)
    assert status == 0 and json.loads(out)["standings"][0]["rank"] == 1
    status, out, _ = await _cli(capsys, "show", tid, "--json", *where)
    assert status == 0 and json.loads(out)["tournament"]["winner"]


async def test_fixed_and_required_decks(server: Running, capsys: pytest.CaptureFixture[str]) -> None:
    where = ["--server", f"127.0.0.1:{server.port}"]
    admin = [*where, "--admin-token", ADMIN_TOKEN]
    fixed = ["--deck-rule", "fixed", "--fixed-deck", '{"deck": "starter_b"}']
    status, out, _ = await _cli(capsys, "create", "cup", "--ruleset", "card_monsters", *fixed, *admin)
    tid = out.strip()
    assert status == 0
    assert (await _cli(capsys, "register", tid, "ann", *admin))[0] == 0
    assert (await _cli(capsys, "register", tid, "bob", "--deck", '{"deck": "starter_b"}', *admin))[0] == 0
    status, _, err = await _cli(capsys, "register", tid, "cat", "--deck", '{"deck": "starter_a"}', *admin)
    assert status == 1 and "(DECK_FIXED)" in err
    status, out, _ = await _cli(capsys, "events", tid, "--json", *admin)
    decks = [json.loads(e["data_json"])["deck"] for e in json.loads(out)["events"][1:]]
    assert decks == [{"deck": "starter_b"}, {"deck": "starter_b"}]
    status, out, _ = await _cli(
        capsys, "create", "cup", "--ruleset", "card_monsters", "--deck-rule", "required", *admin
    )
    required = out.strip()
    status, _, err = await _cli(capsys, "register", required, "ann", *admin)
    assert status == 1 and "(DECK_REQUIRED)" in err
    # Left to the default rule, a player without a deck plays the ruleset's first preset at either seat.
    status, out, _ = await _cli(capsys, "create", "cup", "--ruleset", "card_monsters", *admin)
    anyone = out.strip()
    assert (await _cli(capsys, "register", anyone, "ann", *admin))[0] == 0
    status, out, _ = await _cli(capsys, "events", anyone, "--json", *admin)
    assert json.loads(json.loads(out)["events"][1]["data_json"])["deck"] == {"deck": "starter_a"}
    status, _, err = await _cli(capsys, "create", "cup", "--ruleset", "card_monsters", "--deck-rule", "fixed", *admin)
    assert status == 1 and "(DECK_RULE_INVALID)" in err
    status, _, err = await _cli(capsys, "create", "cup", "--ruleset", "card_monsters", "--fixed-deck", "[]", *admin)
    assert status == 2 and err.startswith("--fixed-deck: not a JSON object")


async def test_the_organisers_audited_verbs(server: Running, capsys: pytest.CaptureFixture[str]) -> None:
    where = ["--server", f"127.0.0.1:{server.port}"]
    admin = [*where, "--admin-token", ADMIN_TOKEN]
    status, out, _ = await _cli(capsys, "create", "cup", "--ruleset", "card_monsters", "--rounds", "2", *admin)
    tid = out.strip()
    for player in ("ann", "bob", "cat", "dan"):
        assert (await _cli(capsys, "register", tid, player, *admin))[0] == 0
    assert (await _cli(capsys, "start", tid, *admin))[0] == 0
    status, out, _ = await _cli(capsys, "drop", tid, "dan", "--by", "judge", *admin)
    assert status == 0 and out.strip() == "dropped: dan"
    status, out, _ = await _cli(capsys, "reinstate", tid, "dan", "--by", "judge", "--why", "back", "--json", *admin)
    assert status == 0 and not next(p for p in json.loads(out)["players"] if p["name"] == "dan").get("dropped")
    status, out, _ = await _cli(capsys, "repair", tid, "--by", "judge", "--why", "wrong tables", "--json", *admin)
    assert status == 0 and json.loads(out)["round"] == 1
    status, out, _ = await _cli(capsys, "publish", tid, "--by", "judge", "--why", "stream", *admin)
    assert status == 0 and out.strip() == "replays published"
    status, _, err = await _cli(capsys, "publish", tid, "--by", "judge", "--why", "stream", *admin)
    assert status == 1 and "(REPLAYS_PUBLISHED)" in err
    status, out, _ = await _cli(capsys, "events", tid, "--json", *admin)
    types = [e["type"] for e in json.loads(out)["events"]]
    assert types[-4:] == ["PlayerDropped", "PlayerReinstated", "RoundRepaired", "ReplaysPublished"]
