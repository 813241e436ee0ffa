"""``duelhall``: the command line. One module per noun; each command returns an exit status.

Exit 0 on success, 1 when the operation failed (a replay did not verify, a match did not finish),
2 on usage errors. A failure prints one line (the error's class and message) unless ``--debug``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from services.cli import health, matches, migrate, prune, replay, rulesets, selfplay, serve, tournament, view
from services.secrets import scrub


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="duelhall", description="Event-sourced match service for card games.")
    root.add_argument("--debug", action="store_true", help="show tracebacks")
    commands = root.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in (serve, migrate, health, rulesets, selfplay, matches, replay, prune, tournament, view):
        module.register(commands)
    return root


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # noqa: BLE001 - the CLI's edge: one line per failure
        if args.debug:
            raise
        print(scrub(f"{type(exc).__name__}: {exc}"), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
