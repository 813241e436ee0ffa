"""Tiebreakers against the worked examples of the published tournament rules, computed exactly."""

from __future__ import annotations

from fractions import Fraction

from services.tournament import standings
from services.tournament.standings import Record, Standing


def _filled(hero: str, results: dict[str, str], records: dict[str, tuple[int, int, int]]) -> list[Record]:
    """Records in which ``hero`` met each opponent once (``results``: "W"/"L"/"D" from hero's side) and each
    opponent's whole record (wins, losses, draws, the match with hero included) is as given, the other
    matches against players met nowhere else."""
    found: list[Record] = []
    filler = 0
    for round_, (opponent, outcome) in enumerate(results.items(), start=1):
        found.append(Record(round_, hero, opponent, *{"W": (2, 0, 0), "L": (0, 2, 0), "D": (1, 1, 0)}[outcome]))
        wins, losses, draws = records[opponent]
        wins -= outcome == "L"
        losses -= outcome == "W"
        draws -= outcome == "D"
        for result, count in (((2, 0, 0), wins), ((0, 2, 0), losses), ((1, 1, 0), draws)):
            for _ in range(count):
                filler += 1
                found.append(Record(100 + filler, opponent, f"filler{filler}", *result))
    return found


def _players(records: list[Record]) -> list[str]:
    return sorted({r.a for r in records} | {r.b for r in records if r.b is not None})


def _row(table: list[Standing], player: str) -> Standing:
    return next(s for s in table if s.player == player)


def test_mtg_match_and_game_points() -> None:
    """Magic: The Gathering Tournament Rules, Appendix C, "Match Points" and "Game Points": a 6-2-0 record
    is 18 match points, 4-2-2 is 14; a match won 2-0-0 gives 6 game points to 0, 2-1-0 gives 6 to 3, and
    2-0-1 gives 7 to 1."""
    six_two = [Record(i, "ann", f"o{i}", 2, 0, 0) for i in range(6)] + [
        Record(6 + i, "ann", f"l{i}", 0, 2, 0) for i in range(2)
    ]
    four_two_two = (
        [Record(i, "bob", f"o{i}", 2, 0, 0) for i in range(4)]
        + [Record(4 + i, "bob", f"l{i}", 0, 2, 0) for i in range(2)]
        + [Record(6 + i, "bob", f"d{i}", 1, 1, 0) for i in range(2)]
    )
    lines = standings.lines(_players(six_two + four_two_two), six_two + four_two_two)
    assert lines["ann"].points == 18 and lines["bob"].points == 14
    games = standings.lines(
        ["w", "x", "y", "z", "u", "v"],
        [Record(1, "w", "x", 2, 0, 0), Record(1, "y", "z", 2, 1, 0), Record(1, "u", "v", 2, 0, 1)],
    )
    assert [(games[a].game_points, games[b].game_points) for a, b in (("w", "x"), ("y", "z"), ("u", "v"))] == [
        (6, 0),
        (6, 3),
        (7, 1),
    ]


def test_mtg_match_win_percentage_table() -> None:
    """Magic: The Gathering Tournament Rules, Appendix C, "Match-win percentage" examples in an 8-round
    tournament: 5-2-1 over 8 rounds is 16/24 = 0.667; 1-3-0 then withdrawing is 3/12 = 0.25, so 0.33 is
    used; 3-2-0 including a first-round bye, then withdrawing, is 9/15 = 0.60."""
    records = (
        [Record(1 + i, "full", f"w{i}", 2, 0, 0) for i in range(5)]
        + [Record(6 + i, "full", f"l{i}", 0, 2, 0) for i in range(2)]
        + [Record(8, "full", "d", 1, 1, 0)]
        + [Record(1, "quit", "x0", 2, 0, 0)]
        + [Record(2 + i, "quit", f"x{i + 1}", 0, 2, 0) for i in range(3)]
        + [Record(1, "bye", None)]
        + [Record(2 + i, "bye", f"y{i}", 2, 0, 0) for i in range(2)]
        + [Record(4 + i, "bye", f"z{i}", 0, 2, 0) for i in range(2)]
    )
    lines = standings.lines(_players(records), records)
    assert standings.mtg_match_win(lines["full"]) == Fraction(16, 24)
    assert round(float(standings.mtg_match_win(lines["full"])), 3) == 0.667
    assert standings.mtg_match_win(lines["quit"]) == Fraction(33, 100)
    assert standings.mtg_match_win(lines["bye"]) == Fraction(9, 15)


def test_mtg_opponents_match_win_percentage() -> None:
    """Magic: The Gathering Tournament Rules, Appendix C, "Opponents' match-win percentage": a 6-2-0 player
    whose opponents finished 4-4-0, 7-1-0, 1-3-1, 3-3-1, 6-2-0, 5-2-1, 4-3-1 and 6-1-1 has opponents'
    match-win percentages 0.50, 0.875, 0.33 (0.267 raised to the floor), 0.476, 0.75, 0.667, 0.542 and 0.792,
    so an OMW% of 0.617. The document sums the rounded percentages (4.932 / 8); the exact mean is
    20711/33600 = 0.6164."""
    opponents = {
        "o1": (4, 4, 0),
        "o2": (7, 1, 0),
        "o3": (1, 3, 1),
        "o4": (3, 3, 1),
        "o5": (6, 2, 0),
        "o6": (5, 2, 1),
        "o7": (4, 3, 1),
        "o8": (6, 1, 1),
    }
    results = {"o1": "W", "o2": "L", "o3": "W", "o4": "W", "o5": "W", "o6": "W", "o7": "W", "o8": "L"}
    records = _filled("hero", results, opponents)
    table = standings.standings("mtg", _players(records), records)
    hero = _row(table, "hero")
    assert (hero.wins, hero.losses, hero.draws) == (6, 2, 0)
    expected = [
        Fraction(12, 24),
        Fraction(21, 24),
        Fraction(33, 100),
        Fraction(10, 21),
        Fraction(18, 24),
        Fraction(16, 24),
        Fraction(13, 24),
        Fraction(19, 24),
    ]
    lines = standings.lines(_players(records), records)
    assert [round(float(standings.mtg_match_win(lines[o])), 3) for o in opponents] == [
        0.5,
        0.875,
        0.33,
        0.476,
        0.75,
        0.667,
        0.542,
        0.792,
    ]
    assert hero.tiebreaks[0] == sum(expected, Fraction(0)) / 8 == Fraction(20711, 33600)
    # The document's 0.617: its rounded percentages sum to 4.932, and 4.932 / 8 = 0.6165 rounds up.
    assert sum(Fraction(str(round(float(f), 3))) for f in expected) == Fraction(4932, 1000)


def test_mtg_game_win_percentage_counts_byes_and_has_a_floor() -> None:
    """Magic: The Gathering Tournament Rules, Appendix C, "Game-win percentage": game points over 3 per game
    played, at least 0.33; a bye is a match won 2-0 (games won 2-0)."""
    records = [
        Record(1, "ann", None),
        Record(2, "ann", "bob", 2, 1, 0),
        Record(3, "ann", "cat", 0, 2, 0),
        Record(1, "bob", "cat", 0, 2, 0),
    ]
    lines = standings.lines(["ann", "bob", "cat"], records)
    assert standings.mtg_game_win(lines["ann"]) == Fraction(6 + 6 + 0, 3 * (2 + 3 + 2))
    assert standings.mtg_game_win(lines["bob"]) == Fraction(33, 100)  # 3 of 15 game points is 0.2


def test_pokemon_resistance() -> None:
    """Play! Pokemon Tournament Rules (Tournament Operation Procedures, "Determining Tiebreakers"), as its
    published resistance examples put it: a win counts 1, a tie 1/2, over the rounds played, so an opponent
    who finished 3-1-1 contributes 70 %; byes are left out, so an opponent who received a bye and finished
    2-1 contributes 1-1, 50 %; no opponent contributes less than 25 %, a dropped one more than 75 %."""
    records = [
        Record(1, "hero", "x", 0, 1, 0),
        Record(2, "x", "a", 1, 0, 0),
        Record(3, "x", "b", 1, 0, 0),
        Record(4, "x", "c", 0, 1, 0),
        Record(5, "x", "d", 0, 0, 1),
        Record(1, "y", None),
        Record(2, "hero", "y", 0, 1, 0),
        Record(3, "y", "e", 0, 1, 0),
        Record(3, "hero", "z", 1, 0, 0),
        Record(4, "z", "f", 0, 1, 0),
        Record(5, "z", "g", 0, 1, 0),
        Record(4, "hero", "w", 0, 1, 0),
        Record(5, "w", "h", 1, 0, 0),
    ]
    table = standings.standings("pokemon", _players(records), records, dropped=["w"])
    hero = _row(table, "hero")
    # x: 3-1-1 -> 7/10; y: 2-1 with a bye -> 1/2; z: 0-3 -> 0, raised to 1/4; w: 2-0, dropped -> 3/4.
    assert hero.tiebreaks[0] == (Fraction(7, 10) + Fraction(1, 2) + Fraction(1, 4) + Fraction(3, 4)) / 4
    lines = standings.lines(_players(records), records)
    assert standings.pokemon_win(lines["x"], dropped=False) == Fraction(7, 10)
    assert standings.pokemon_win(lines["y"], dropped=False) == Fraction(1, 2)
    assert hero.tiebreaks[1] == sum((_row(table, o).tiebreaks[0] for o in ("x", "y", "z", "w")), Fraction(0)) / 4


def test_pokemon_head_to_head_only_between_exactly_two() -> None:
    """Play! Pokemon Tournament Rules, "Determining Tiebreakers": head-to-head decides only when exactly two
    players are still tied after both resistance tiebreakers."""
    lines = standings.lines(
        ["amy", "zed", "cat", "dan", "eve"],
        [Record(1, "zed", "amy", 1, 0, 0), Record(2, "eve", "dan", 1, 0, 0), Record(3, "dan", "cat", 1, 0, 0)],
    )

    def tied(player: str) -> tuple[int]:
        return (0,)

    assert standings._head_to_head(["amy", "zed"], tied, lines) == ["zed", "amy"]
    # Three tied: no head-to-head, the order stands even though eve beat dan.
    assert standings._head_to_head(["cat", "dan", "eve"], tied, lines) == ["cat", "dan", "eve"]


def test_ygo_points_and_tiebreaker_number() -> None:
    """Yu-Gi-Oh! TCG Tournament Policy, "Tie-Breaker Explanation": a Duelist with 2 wins and 1 draw has 7
    points; the tiebreaker number 33726677 is 33 points, 72.6 % opponents' match-win percentage and 67.7 %
    opponents' opponents' match-win percentage."""
    records = [
        Record(1, "duelist", "a", 1, 0, 0),
        Record(2, "duelist", "b", 1, 0, 0),
        Record(3, "duelist", "c", 0, 0, 1),
    ]
    table = standings.standings("ygo", _players(records), records)
    assert _row(table, "duelist").points == 7
    number = Standing(
        rank=1,
        player="x",
        points=33,
        wins=11,
        losses=0,
        draws=0,
        byes=0,
        tiebreaks=(Fraction(726, 1000), Fraction(6775, 10000)),
        dropped=False,
    )
    assert standings.ygo_number(number) == "33726677"


def test_ygo_opponents_match_win_and_opponents_opponents() -> None:
    """OMW is the mean of the opponents' match wins over matches played, byes left out; OOMW the mean of the
    opponents' OMW (Yu-Gi-Oh! TCG Tournament Policy, "Tie-Breaker Explanation")."""
    records = [
        Record(1, "p", "q", 1, 0, 0),
        Record(2, "p", "r", 0, 1, 0),
        Record(1, "r", None),
        Record(2, "q", "s", 1, 0, 0),
        Record(3, "r", "s", 1, 0, 0),
    ]
    table = standings.standings("ygo", _players(records), records)
    p = _row(table, "p")
    # q: 1 win of 2 -> 1/2; r: 2 wins of 2 (the bye left out) -> 1.
    assert p.tiebreaks[0] == Fraction(3, 4)
    q, r = _row(table, "q"), _row(table, "r")
    assert p.tiebreaks[1] == (q.tiebreaks[0] + r.tiebreaks[0]) / 2
