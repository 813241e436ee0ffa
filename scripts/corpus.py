"""The replay corpus: real replay files of every hosted ruleset version, verified by CI forever.

For each hosted ``(id, version)`` it plays the corpus matches from fixed seeds with fixed bots through the match
manager on a throw-away SQLite store, exports each with its seed, and writes
``tests/replays/corpus/<id>/v<version>/<name>.format<n>.json`` in the current replay format ``n`` (format 1, written
before hash chain 2, has no suffix): a match conceded early and one greedy bots play to its end. A file that exists
is never rewritten: it stays what the release that wrote it exported (its ``recorded_at`` times are the store's
clock, the one part of a file that is not deterministic; chain 2 hashes them), so the corpus keeps files of every
format a release wrote.
``tests/replays/test_corpus.py`` verifies every file with every check (CONTRIBUTING.md, "The replay corpus").

    python scripts/corpus.py            # write the files missing for the hosted versions
    python scripts/corpus.py --check    # exit 1 listing hosted versions without their files
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from engine.bots import Bot, GreedyBot, RandomBot
from engine.contract import Ruleset
from engine.match import encode
from engine.registry import HOSTED
from engine.selfplay import next_move
from eventstore import migrate, open_store
from replays import storage
from replays.format import FORMAT_VERSION
from services.matches.creation import SeatEntry
from services.matches.manager import MatchManager

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "replays" / "corpus"
CONCEDED_AFTER = 12
"""Commands before the early concession: a few turns of every game, in a file of a few kilobytes."""


class Match(NamedTuple):
    """One corpus match: its file name, seed, bots and, for a concession, after how many commands."""

    name: str
    seed: int
    greedy: bool
    concede_after: int | None

    def bots(self, ruleset: Ruleset, seats: int) -> list[Bot]:
        return [
            GreedyBot(ruleset, self.seed * 10 + seat) if self.greedy else RandomBot(self.seed * 10 + seat)
            for seat in range(seats)
        ]


MATCHES = (
    Match("conceded", 1, greedy=False, concede_after=CONCEDED_AFTER),
    Match("greedy", 3, greedy=True, concede_after=None),
)


def path_of(ruleset: Ruleset, match: Match, format_version: int = FORMAT_VERSION) -> Path:
    suffix = "" if format_version == 1 else f".format{format_version}"
    return CORPUS / ruleset.id / f"v{ruleset.version}" / f"{match.name}{suffix}.json"


async def exported(ruleset: Ruleset, match: Match, url: str) -> bytes:
    """The replay of ``match`` played on the store at ``url`` (migrated, empty)."""
    store = await open_store(url)
    try:
        manager = MatchManager(store)
        seats = [SeatEntry(name=f"p{seat}", config={}) for seat in range(ruleset.showcase_seats or ruleset.min_seats)]
        created = await manager.create(
            ruleset.id,
            seats,
            dict(ruleset.concede_options) if match.concede_after is not None else {},
            seed=match.seed.to_bytes(32, "big"),
            ruleset_version=ruleset.version,
        )
        match_id = created.row.match_id
        hot = await manager.get(match_id)
        bots = match.bots(ruleset, len(seats))
        commands = 0
        while hot.outcome is None:
            if commands == match.concede_after:
                # The seat to act concedes (seat 0 while only the clock can move): conceding is always legal.
                actor, raw = (hot.ruleset.to_act(hot.state) or (0,))[0], b'{"type":"concede"}'
            else:
                actor, command = next_move(ruleset, hot.state, bots)
                raw = encode(command)
            commands += 1
            await manager.submit(match_id, actor, raw, command_id=f"c{commands}")
        await manager.stop()
        return await storage.export(store, match_id, include_seed=True)
    finally:
        await store.close()


def missing() -> list[tuple[Ruleset, Match]]:
    return [
        (ruleset, match)
        for _, ruleset in sorted(HOSTED.items())
        for match in MATCHES
        if not path_of(ruleset, match).exists()
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="list hosted versions without corpus files")
    args = parser.parse_args(argv)
    absent = missing()
    if args.check:
        for ruleset, match in absent:
            print(f"missing {path_of(ruleset, match).relative_to(CORPUS.parent)}")
        return 1 if absent else 0
    for ruleset, match in absent:
        with tempfile.TemporaryDirectory() as directory:
            url = f"sqlite:///{Path(directory) / 'store.db'}"
            migrate(url)
            data = asyncio.run(exported(ruleset, match, url))
        path = path_of(ruleset, match)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        print(f"wrote {path.relative_to(CORPUS.parent)} ({len(data):,} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
