"""What every verb shares: the call to the server, its refusals, JSON output and the flags' checks."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from typing import TypeVar

import grpc
from google.protobuf import json_format
from google.protobuf.message import Message

from services.api import tournament_pb2_grpc as tpb_grpc
from services.cli.common import channel, err, out
from services.cli.errors import reason

T = TypeVar("T")
Stub = tpb_grpc.TournamentServiceStub
PLAYER_TOKEN_ENV = "DUELHALL_PLAYER_TOKEN"
DECK_FORMAT = 'a JSON object, the seat configuration for the ruleset, e.g. --deck \'{"deck": "starter_a"}\''


def as_json(message: Message) -> str:
    return json.dumps(json_format.MessageToDict(message, preserving_proto_field_name=True), sort_keys=True)


def print_json(message: Message) -> None:
    """Straight to stdout, not through rich: JSON must stay one unwrapped, unstyled line."""
    sys.stdout.write(as_json(message) + "\n")
    sys.stdout.flush()


def player_token(args: argparse.Namespace) -> str:
    return str(args.token or args.admin_token)


class UsageError(Exception):
    """A flag's value the command refuses before calling the server (exit status 2, as argparse's own)."""


def call(args: argparse.Namespace, work: Callable[[Stub], Awaitable[T]]) -> T:
    async def run() -> T:
        async with channel(args, args.server) as connected:
            return await work(tpb_grpc.TournamentServiceStub(connected))  # type: ignore[no-untyped-call]

    return asyncio.run(run())


def refusals(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def guarded(args: argparse.Namespace) -> int:
        try:
            return run(args)
        except grpc.aio.AioRpcError as error:
            err.print(f"{error.details()} ({reason_of(error)})")
            return 1
        except UsageError as error:
            err.print(str(error), soft_wrap=True, markup=False)
            return 2

    return guarded


def reason_of(error: grpc.aio.AioRpcError) -> str:
    """The refusal's ErrorInfo reason, else its status code's name."""
    return reason(error) or str(error.code().name)


def done(args: argparse.Namespace, reply: Message, line: str) -> None:
    if args.json:
        print_json(reply)
    else:
        out.print(line)


def parsed_labels(given: list[str]) -> dict[str, str]:
    labels = {}
    for label in given:
        key, equals, value = label.partition("=")
        if not equals:
            raise SystemExit(f"--label takes KEY=VALUE, not {label!r}")
        labels[key] = value
    return labels


def checked_deck(text: str, flag: str) -> str:
    """``text`` if it is a JSON object (or empty), else exits 2 naming the flag and the format it takes."""
    if text:
        try:
            value = json.loads(text)
        except ValueError as exc:
            value = exc
        if not isinstance(value, dict):
            problem = f"not JSON ({value})" if isinstance(value, ValueError) else "not a JSON object"
            raise UsageError(f"{flag}: {problem}; expected {DECK_FORMAT.replace('--deck', flag)}")
    return text
