"""``duelhall``: the command line. One module per noun; each command returns an exit status.

Exit 0 on success, 1 when the operation failed (a replay did not verify, a match did not finish, the
database or server could not be used), 2 on usage errors. A failure prints one plain sentence unless
``--debug``. Output cut short by its reader (``| head``) ends quietly with status 141, as other tools do.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib.metadata import version

from services.cli import health, matches, migrate, prune, replay, rulesets, selfplay, serve, tournament, view
from services.cli.errors import describe
from services.core.secrets import scrub

BROKEN_PIPE = 141
"""128 + SIGPIPE: what a shell reports for a writer whose reader went away."""


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="duelhall", description="Event-sourced match service for card games.")
    root.add_argument("--version", action="version", version=f"duelhall {version('duelhall')}")
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
    except BrokenPipeError:
        # Python would complain again when it flushes stdout at exit: point it at /dev/null first.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return BROKEN_PIPE
    except Exception as exc:
        if args.debug:
            raise
        print(scrub(f"duelhall: {describe(exc)}"), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
