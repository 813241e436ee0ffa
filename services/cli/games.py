"""Bot-versus-bot matches three ways: engine only, through the match manager on a store, or over gRPC."""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import grpc
import msgspec

from engine import selfplay
from engine.bots import Bot, make_bot
from engine.contract import CONCEDE, Outcome, Ruleset
from engine.match import encode
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.matches.creation import SeatEntry
from services.matches.manager import MatchManager


class GameResult(msgspec.Struct, frozen=True):
    match_id: str
    commands: int
    events: int
    outcome: Outcome | None


class Summary(msgspec.Struct, frozen=True):
    ruleset: str
    games: list[GameResult]
    seconds: float

    @property
    def finished(self) -> int:
        return sum(1 for g in self.games if g.outcome is not None)

    @property
    def commands(self) -> int:
        return sum(g.commands for g in self.games)

    @property
    def events(self) -> int:
        return sum(g.events for g in self.games)

    def outcomes(self) -> Counter[str]:
        """Counts of 'seat N wins (reason)', 'draw (reason)' and 'unfinished'."""
        return Counter(described(game.outcome) for game in self.games)


def described(outcome: Outcome | None) -> str:
    """'seat N wins (reason)', 'draw (reason)' or 'unfinished'."""
    if outcome is None:
        return "unfinished"
    if outcome.draw:
        return f"draw ({outcome.reason})"
    return f"seat {'+'.join(str(s) for s in outcome.winners)} wins ({outcome.reason})"


Progress = Callable[[], None]


def seat_count(ruleset: Ruleset, players: int | None) -> int:
    count = players or ruleset.min_seats
    if not ruleset.min_seats <= count <= ruleset.max_seats:
        allowed = (
            f"{ruleset.min_seats}"
            if ruleset.min_seats == ruleset.max_seats
            else f"{ruleset.min_seats} to {ruleset.max_seats}"
        )
        raise ValueError(f"{ruleset.id} takes {allowed} players, not {count}")
    return count


def match_seed(seed: int, game: int) -> bytes:
    return hashlib.sha256(f"duelhall-selfplay:{seed}:{game}".encode()).digest()


def bots_for(ruleset: Ruleset, kind: str, seed: int, game: int, players: int) -> list[Bot]:
    return [make_bot(kind, ruleset, seed * 1_000_003 + game * 7 + seat) for seat in range(players)]


def seat_names(players: int) -> list[str]:
    return [f"bot-{seat}" for seat in range(players)]


def play_in_process(
    ruleset: Ruleset, games: int, seed: int, bot: str, players: int | None, progress: Progress
) -> Summary:
    """Engine only: reproducible from ``seed``."""
    count = seat_count(ruleset, players)
    config: dict[str, Any] = {"seats": [{} for _ in range(count)], "options": {}}
    started = time.perf_counter()
    results = []
    for game in range(games):
        played = selfplay.play(
            ruleset, config, seat_names(count), match_seed(seed, game), bots_for(ruleset, bot, seed, game, count)
        )
        results.append(
            GameResult(
                match_id=f"local-{game}", commands=played.commands, events=len(played.events), outcome=played.outcome
            )
        )
        progress()
    return Summary(ruleset=ruleset.id, games=results, seconds=time.perf_counter() - started)


async def play_with_store(
    manager: MatchManager, ruleset: Ruleset, games: int, seed: int, bot: str, players: int | None, progress: Progress
) -> Summary:
    """Through the match manager on a real store, one game after another."""
    count = seat_count(ruleset, players)
    started = time.perf_counter()
    results = []
    for game in range(games):
        created = await manager.create(ruleset.id, [SeatEntry(name=n, config={}) for n in seat_names(count)], {})
        hot = await manager.get(created.row.match_id)
        bots = bots_for(ruleset, bot, seed, game, count)
        commands = 0
        while hot.outcome is None:
            actor, command = selfplay.next_move(ruleset, hot.state, bots)
            await manager.submit(hot.match_id, actor, encode(command))
            commands += 1
        results.append(GameResult(match_id=hot.match_id, commands=commands, events=hot.version, outcome=hot.outcome))
        progress()
    await manager.ends.recorded()
    return Summary(ruleset=ruleset.id, games=results, seconds=time.perf_counter() - started)


async def play_through_server(
    channel: grpc.aio.Channel,
    ruleset: Ruleset,
    games: int,
    seed: int,
    bot: str,
    players: int | None,
    progress: Progress,
    concurrency: int = 8,
) -> Summary:
    """Over gRPC (``channel``), as any client would: tokens, legal commands with the view, submit."""
    count = seat_count(ruleset, players)
    started = time.perf_counter()
    slots = asyncio.Semaphore(concurrency)
    stub = pb_grpc.MatchServiceStub(channel)  # type: ignore[no-untyped-call]  # generated, untyped

    async def one(game: int) -> GameResult:
        async with slots:
            result = await play_remote(stub, ruleset, bots_for(ruleset, bot, seed, game, count), count)
            progress()
            return result

    results = await asyncio.gather(*(one(game) for game in range(games)))
    return Summary(ruleset=ruleset.id, games=list(results), seconds=time.perf_counter() - started)


async def play_remote(stub: pb_grpc.MatchServiceStub, ruleset: Ruleset, bots: list[Bot], count: int) -> GameResult:
    """One bot match through the server; bots see only their view and legal commands."""
    created = await stub.CreateMatch(
        pb.CreateMatchRequest(ruleset=ruleset.id, seats=[pb.SeatSpec(name=name) for name in seat_names(count)])
    )
    match_id = created.match.match_id
    tokens = [t.token for t in sorted(created.tokens, key=lambda t: t.seat)]
    view_type: msgspec.json.Decoder[Any] = msgspec.json.Decoder(ruleset.View)
    command_type = msgspec.json.Decoder(ruleset.Command)
    to_act = list((await stub.GetView(pb.GetViewRequest(match_id=match_id))).to_act)
    commands = 0
    events = created.match.version
    while to_act:
        seat = to_act[0]
        legal = await stub.ListLegalCommands(
            pb.ListLegalCommandsRequest(match_id=match_id, token=tokens[seat], include_view=True)
        )
        options = [command_type.decode(c) for c in legal.commands_json]
        options = [c for c in options if c.__struct_config__.tag != CONCEDE]
        choice = bots[seat].choose(view_type.decode(legal.view_json), options)
        reply = await stub.SubmitCommand(
            pb.SubmitCommandRequest(
                match_id=match_id,
                token=tokens[seat],
                command_json=encode(choice).decode(),
                command_id=f"{match_id}-{commands}",
            )
        )
        commands += 1
        events = reply.version
        to_act = list(reply.to_act)
    final = await stub.GetMatch(pb.GetMatchRequest(match_id=match_id))
    outcome = None
    if final.status == pb.MATCH_STATUS_ENDED:
        outcome = msgspec.json.decode(final.outcome_json, type=Outcome)
    return GameResult(match_id=match_id, commands=commands, events=events, outcome=outcome)
