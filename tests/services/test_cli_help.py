"""Every command's ``--help`` says what it does, what each argument means and, where it has one, its default."""

from __future__ import annotations

import argparse

from services.cli.main import parser

TRIVIAL = (None, False, "", [], ())
"""Defaults that need no mention: absent, off, empty (and a flag's, which says what setting it does)."""


def _commands(root: argparse.ArgumentParser, path: str = "duelhall") -> dict[str, argparse.ArgumentParser]:
    found = {path: root}
    for action in root._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found |= _commands(sub, f"{path} {name}")
    return found


def test_every_command_and_argument_is_described_with_its_default() -> None:
    missing = []
    for path, command in _commands(parser()).items():
        if not command.description:
            missing.append(f"{path}: no description")
        for action in command._actions:
            if isinstance(action, argparse._HelpAction | argparse._VersionAction | argparse._SubParsersAction):
                continue
            name = action.option_strings[-1] if action.option_strings else action.dest
            if not action.help:
                missing.append(f"{path} {name}: no help")
            elif action.nargs != 0 and action.default not in TRIVIAL and "default" not in action.help:
                missing.append(f"{path} {name}: default {action.default!r} not said")
    assert not missing, "\n".join(missing)
