"""``duelhall``: the command line. One module per noun; each command returns an exit status.

Exit 0 on success, 1 when the operation failed (a replay did not verify, a match did not finish, the
database or server could not be used), 2 on usage errors. A failure prints one plain sentence unless
``--debug``. Output cut short by its reader (``| head``) ends quietly with status 141, as other tools do.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from importlib.metadata import version

from services.core.secrets import scrub

BROKEN_PIPE = 141
"""128 + SIGPIPE: what a shell reports for a writer whose reader went away."""

COMMANDS = {
    "serve": "run the match service (gRPC, and HTTP for browsers)",
    "migrate": "apply the database migrations",
    "health": "check a running server's health (exit 0: SERVING)",
    "rulesets": "list the hosted rulesets",
    "selfplay": "bots play matches and a summary is printed",
    "play": "play a match against the server's bots in the browser: prints the address to open",
    "matches": "list stored matches, newest first",
    "join": "take an open seat of a match on a running server; prints the seat's token",
    "replay": "export, import, verify and show replay files",
    "prune": "delete from the store the ended matches whose replay files in DIR verify",
    "tournament": "run a tournament on a server",
    "view": "open a replay file in the viewer page (HTTP only, free port)",
}
"""Each command, its module (``services.cli.<command>``, whose ``arguments`` fills its parser) and its help."""
LOGGING = ("serve", "migrate")
"""The commands that configure logging themselves (``--log-format``); every other is quiet (``quiet_client``)."""


def parser(chosen: str | None = None) -> argparse.ArgumentParser:
    """The command line; only the ``chosen`` command's module is imported (None: every command's), so
    ``--version``, ``--help`` and a command that needs no server code start at once."""
    root = argparse.ArgumentParser(prog="duelhall", description="Event-sourced match service for card games.")
    root.add_argument("--version", action="version", version=f"duelhall {version('duelhall')}")
    root.add_argument("--debug", action="store_true", help="show tracebacks")
    commands = root.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, summary in COMMANDS.items():
        command = commands.add_parser(name, help=summary, description=summary[0].upper() + summary[1:] + ".")
        if chosen is None or name == chosen:
            importlib.import_module(f"services.cli.{name}").arguments(command)
    return root


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    chosen = next((word for word in argv if not word.startswith("-")), "")
    args = parser(chosen).parse_args(argv)
    if args.command not in LOGGING:
        from services.core.logs import quiet_client

        quiet_client()
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
        from services.cli.errors import describe
        from services.core.logs import fatal

        said = scrub(f"duelhall: {describe(exc)}")
        if not fatal(said):  # serve and migrate log it with --log-format json
            print(said, file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
