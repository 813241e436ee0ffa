"""Every option of a command may come from the environment: ``--drain-seconds`` from ``DUELHALL_DRAIN_SECONDS``.

The variable is ``DUELHALL_`` and the option's name in capitals (dashes as underscores); a flag that switches
something off (``--no-migrate``) is the variable of what it switches (``DUELHALL_MIGRATE=0``). A flag given on
the command line wins over the environment. Values are parsed as the flag's would be; a bad one is a usage
error naming the variable.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Mapping

PREFIX = "DUELHALL_"
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def variable(action: argparse.Action) -> str:
    return PREFIX + action.dest.upper()


def options(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """The parser's options that the environment can set."""
    return [a for a in parser._actions if a.option_strings and not isinstance(a, argparse._HelpAction)]


def from_environment(parser: argparse.ArgumentParser, environ: Mapping[str, str] = os.environ) -> None:
    """Take each option's default from its variable when set, and name the variable in the option's help."""
    for action in options(parser):
        name = variable(action)
        action.help = f"{action.help or ''} [${name}]".strip()
        raw = environ.get(name)
        if raw is None:
            continue
        if isinstance(action, argparse._StoreConstAction):  # store_true / store_false
            if raw.lower() not in _TRUE + _FALSE:
                parser.error(f"{name}={raw!r}: use 1 or 0")
            action.default = raw.lower() in _TRUE
            continue
        if action.choices is not None and raw not in action.choices:
            parser.error(f"{name}={raw!r}: choose from {', '.join(map(str, action.choices))}")
        # A string default is converted by the option's type when the command line is parsed.
        action.default = raw
