"""``duelhall tournament play``: a bot plays a player's whole tournament with the player's own token.

It follows the player's form of ``WatchTournament``: each game that is ready it plays through the match service
with the seat token the feed hands it (following ``WatchMatch`` and submitting the bot's choice among the seat's
legal commands whenever the match waits on the seat); when it is the chooser it lets itself go first. The bye,
the results and the end arrive on the same feed, so it never polls.
"""

from __future__ import annotations

import grpc
import msgspec

from engine import registry
from engine.bots import Bot, make_bot
from engine.contract import CONCEDE, Ruleset
from engine.match import encode
from services.api import duelhall_pb2 as pb
from services.api import duelhall_pb2_grpc as pb_grpc
from services.api import tournament_pb2 as tpb
from services.api import tournament_pb2_grpc as tpb_grpc
from services.cli.common import out


async def play_tournament(
    channel: grpc.aio.Channel, tournament_id: str, player: str, token: str, bot: str, seed: int
) -> tpb.Tournament:
    """Plays every game of ``player`` until the tournament ends; returns it as it ended."""
    stub = tpb_grpc.TournamentServiceStub(channel)  # type: ignore[no-untyped-call]  # generated, untyped
    matches = pb_grpc.MatchServiceStub(channel)  # type: ignore[no-untyped-call]
    state = await stub.GetTournament(tpb.GetTournamentRequest(tournament_id=tournament_id))
    version = state.ruleset_version
    ruleset = registry.exact(state.ruleset, version) if version else registry.get(state.ruleset)
    watched = tpb.WatchTournamentRequest(tournament_id=tournament_id, player=player, token=token)
    async for entry in stub.WatchTournament(watched):
        for notice in entry.notices:
            kind = notice.WhichOneof("notice")
            if kind == "table_ready" and notice.table_ready.seat_token:
                ready = notice.table_ready
                out.print(f"round {ready.round} table {ready.table} game {ready.game}: playing {ready.match_id}")
                bot_seed = seed * 1_000_003 + ready.round * 1009 + ready.table * 31 + ready.game
                chosen = make_bot(bot, ruleset, bot_seed)
                await play_seat(matches, ruleset, ready.match_id, ready.seat, ready.seat_token, chosen)
            elif kind == "chooser_waiting" and notice.chooser_waiting.chooser == player:
                waiting = notice.chooser_waiting
                await stub.ChooseFirst(
                    tpb.ChooseFirstRequest(
                        tournament_id=tournament_id,
                        player=player,
                        token=token,
                        round=waiting.round,
                        table=waiting.table,
                        first=player,
                    )
                )
            elif kind == "bye":
                out.print(f"round {notice.bye.round}: the bye")
    ended: tpb.Tournament = await stub.GetTournament(tpb.GetTournamentRequest(tournament_id=tournament_id))
    return ended


async def play_seat(
    matches: pb_grpc.MatchServiceStub, ruleset: Ruleset, match_id: str, seat: int, token: str, bot: Bot
) -> None:
    """The bot plays one seat of a match to its end: at each version that waits on the seat, the seat's legal
    commands at exactly that version (a later one means another update is on its way), and the bot's choice."""
    views: msgspec.json.Decoder[object] = msgspec.json.Decoder(ruleset.View)
    commands = msgspec.json.Decoder(ruleset.Command)
    async for update in matches.WatchMatch(pb.WatchMatchRequest(match_id=match_id, token=token)):
        if update.match_ended:
            return
        if seat not in update.to_act:
            continue
        version = update.event.version
        legal = await matches.ListLegalCommands(
            pb.ListLegalCommandsRequest(match_id=match_id, token=token, min_version=version, include_view=True)
        )
        if legal.version != version:
            continue
        options = [c for c in (commands.decode(c) for c in legal.commands_json) if c.__struct_config__.tag != CONCEDE]
        choice = bot.choose(views.decode(legal.view_json), options)
        try:
            await matches.SubmitCommand(
                pb.SubmitCommandRequest(
                    match_id=match_id,
                    token=token,
                    command_json=encode(choice).decode(),
                    command_id=f"{match_id}-{seat}-{version}",
                    expected_version=version,
                )
            )
        except grpc.aio.AioRpcError as error:
            # The match moved on first (a turn timer ran out): the update for its new version is on its way.
            if error.code() != grpc.StatusCode.ABORTED:
                raise
