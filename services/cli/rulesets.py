"""``duelhall rulesets``: one line per hosted ruleset."""

from __future__ import annotations

import argparse

from engine.registry import RULESETS


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    for key in sorted(RULESETS):
        ruleset = RULESETS[key]
        players = (
            f"{ruleset.min_seats}"
            if ruleset.min_seats == ruleset.max_seats
            else f"{ruleset.min_seats}-{ruleset.max_seats}"
        )
        print(f"{ruleset.id}\tv{ruleset.version}\t{players} players\t{ruleset.title}")
    return 0
