"""``duelhall rulesets``: one line per hosted ruleset version; an older one is marked, since new matches play the
newest unless they name another."""

from __future__ import annotations

import argparse

from engine.registry import HOSTED, RULESETS


def arguments(parser: argparse.ArgumentParser) -> None:
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    for key in sorted(HOSTED):
        ruleset = HOSTED[key]
        players = (
            f"{ruleset.min_seats}"
            if ruleset.min_seats == ruleset.max_seats
            else f"{ruleset.min_seats}-{ruleset.max_seats}"
        )
        older = "" if RULESETS[ruleset.id] is ruleset else f"\t(older: v{RULESETS[ruleset.id].version} is the newest)"
        print(f"{ruleset.id}\tv{ruleset.version}\t{players} players\t{ruleset.title}{older}")
    return 0
