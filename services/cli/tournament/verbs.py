"""The verbs' parsers: each verb's flags and the function that runs it."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable

from engine.bots import BOT_KINDS
from services.cli.common import add_tls_options, add_verb
from services.cli.tournament.calls import (
    DECK_FORMAT,
    PLAYER_TOKEN_ENV,
)
from services.cli.tournament.feed import run_watch
from services.cli.tournament.organiser import (
    run_create,
    run_cut,
    run_drop,
    run_edit,
    run_pair,
    run_publish,
    run_register,
    run_reinstate,
    run_reissue,
    run_repair,
    run_report,
    run_start,
)
from services.cli.tournament.player import run_check_in, run_choose_first, run_play, run_seat, run_side_deck
from services.cli.tournament.reading import run_events, run_list, run_show, run_standings


def arguments(parser: argparse.ArgumentParser) -> None:
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="VERB")

    def verb(
        name: str,
        help: str,
        run: Callable[[argparse.Namespace], int],
        *,
        tournament: bool = True,
        admin: bool = True,
        player: bool = False,
    ) -> argparse.ArgumentParser:
        sub = add_verb(verbs, name, help)
        sub.add_argument(
            "--server", default="127.0.0.1:50051", metavar="HOST:PORT", help="the server (default: 127.0.0.1:50051)"
        )
        add_tls_options(sub)
        sub.add_argument("--json", action="store_true", help="print the server's reply as JSON")
        if admin:
            sub.add_argument(
                "--admin-token",
                default=os.environ.get("DUELHALL_ADMIN_TOKEN", ""),
                help="the server's admin token (default: $DUELHALL_ADMIN_TOKEN)",
            )
        if player:
            sub.add_argument(
                "--token",
                default=os.environ.get(PLAYER_TOKEN_ENV, ""),
                help=f"the player's token (default: ${PLAYER_TOKEN_ENV}; without one, the admin token)",
            )
        if tournament:
            sub.add_argument("tournament_id", help="the tournament's id (tournament create prints it)")
        if player:
            sub.add_argument("player", help="the player's name")
        sub.set_defaults(run=run)
        return sub

    create = verb("create", "create a tournament; prints its id", run_create, tournament=False)
    create.add_argument("name", help="the tournament's name, shown to its players")
    create.add_argument("--ruleset", required=True, help="the ruleset every game plays (duelhall rulesets)")
    create.add_argument(
        "--format",
        choices=("swiss", "single_elimination", "round_robin"),
        default="swiss",
        help="how rounds are paired (default: swiss)",
    )
    create.add_argument("--rounds", type=int, default=0, help="at most 64; 0: automatic from the player count")
    create.add_argument("--cut", type=int, default=0, help="top cut size after Swiss: 2, 4, ... 256 (0: none)")
    create.add_argument("--best-of", type=int, choices=(1, 3, 5), default=1, help="games per match (default: 1)")
    create.add_argument(
        "--tiebreak",
        choices=("mtg", "pokemon", "ygo"),
        default="mtg",
        help="the standings' tiebreakers, by the rules of that game family (default: mtg)",
    )
    create.add_argument(
        "--round-minutes",
        type=int,
        default=50,
        help="the round's time limit: at its end unfinished tables are decided by the tiebreak preset's rule; "
        "0 to 1440, 0: none (default: 50)",
    )
    create.add_argument("--seed", default="", help="64 hex digits: the seed of the pairing draws (default: random)")
    create.add_argument("--options", default="", help="match options as JSON")
    create.add_argument(
        "--spectators",
        choices=("public", "token", "none"),
        default="public",
        help="who may watch its games without a seat token (token: each game's token, shown by show --tokens; "
        "default: public)",
    )
    create.add_argument(
        "--caster-delay", type=int, default=0, help="seconds each game's caster feed runs behind (0: no feed)"
    )
    create.add_argument(
        "--decklists",
        choices=("private", "open"),
        default="private",
        help="open: both players of a table see each other's registered deck (default: private)",
    )
    create.add_argument(
        "--chooser-seconds",
        type=int,
        default=0,
        help="seconds a chooser has between games before the chooser is made to go first, 0 to 3600 (0: no limit)",
    )
    create.add_argument(
        "--label",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a label tournament list filters by; repeatable",
    )
    create.add_argument(
        "--deck-rule",
        choices=("any", "required", "fixed"),
        default="any",
        help="decks at registration: any (none: the ruleset's first preset), required, or fixed (everyone plays "
        "--fixed-deck) (default: any)",
    )
    create.add_argument("--fixed-deck", default="", help=f"with --deck-rule fixed: {DECK_FORMAT}")
    reg = verb("register", "register a player; prints the player's token", run_register)
    reg.add_argument("player", help="the player's name (the name of their seat in every game)")
    reg.add_argument("--deck", default="", help=f"the player's deck: {DECK_FORMAT}")
    reg.add_argument("--seed", type=int, default=0, help="the player's seed, 1 (the top) to 1024 (default: none)")
    reg.add_argument(
        "--rating",
        type=int,
        default=0,
        help="the player's rating, ordering players after the seeded ones (default: none)",
    )
    verb("start", "pair round 1", run_start)
    verb("pair", "pair the next round", run_pair)
    verb("cut", "start the top cut", run_cut)
    standings = verb("standings", "the standings with tiebreakers", run_standings, admin=False)
    standings.add_argument("--round", type=int, default=0, help="as of this round (default: now)")
    report = verb("report", "enter (or correct) a table's result", run_report)
    report.add_argument("round", type=int, help="the round's number")
    report.add_argument("table", type=int, help="the table's number in that round")
    report.add_argument("wins_a", type=int, help="games won by the table's first player (a)")
    report.add_argument("wins_b", type=int, help="games won by the table's second player (b)")
    report.add_argument("--draws", type=int, default=0, help="games drawn (default: 0)")
    report.add_argument("--correction", action="store_true", help="replace the existing result")
    report.add_argument("--by", required=True, help="who enters it")
    report.add_argument("--why", required=True, help="why it is entered by hand (kept in the audit trail)")
    drop = verb("drop", "drop a player (the organiser, or the player with --token)", run_drop)
    drop.add_argument("player", help="the player who drops")
    drop.add_argument("--token", default="", help="the player's own token, instead of the admin token")
    drop.add_argument("--by", default="", help="who drops them (kept in the audit trail; default: the player)")
    drop.add_argument("--why", default="", help="why (kept in the audit trail)")
    listing = verb("list", "the tournaments, oldest first", run_list, tournament=False, admin=False)
    listing.add_argument("--status", choices=("registration", "running", "ended"), default="", help="default: any")
    listing.add_argument(
        "--label", action="append", default=[], metavar="KEY=VALUE", help="only those with this label; repeatable"
    )
    edit = verb("edit", "edit the current Swiss round's pairings before any result", run_edit)
    edit.add_argument(
        "edit", choices=("swap", "bye", "loss"), help="swap two players, or give one the bye or an assigned loss"
    )
    edit.add_argument("players", nargs="+", help="the players: two to swap, one for a bye or a loss")
    edit.add_argument("--by", required=True, help="who edits (kept in the audit trail)")
    edit.add_argument("--why", required=True, help="why (kept in the audit trail)")
    show = verb("show", "the tournament and a round's pairings (with the admin token: every game's match id)", run_show)
    show.add_argument("--round", type=int, default=0, help="default: the current round")
    show.add_argument(
        "--tokens", action="store_true", help="also each game's spectator and caster tokens (needs the admin token)"
    )
    verb("check-in", "check a player in before the start", run_check_in, player=True)
    reinstate = verb("reinstate", "bring a dropped player back (Swiss rounds)", run_reinstate)
    reinstate.add_argument("player", help="the dropped player")
    reinstate.add_argument("--by", required=True, help="who reinstates them (kept in the audit trail)")
    reinstate.add_argument("--why", default="", help="why (kept in the audit trail)")
    repair = verb("repair", "pair the current round again, before any of its results", run_repair)
    repair.add_argument("--by", required=True, help="who re-pairs it (kept in the audit trail)")
    repair.add_argument("--why", required=True, help="why (kept in the audit trail)")
    verb("seat", "a player's match to play now and their seat token in it", run_seat, player=True)
    choose = verb("choose-first", "the chooser picks who goes first in the next game", run_choose_first, player=True)
    choose.add_argument("first", help="the player who goes first")
    choose.add_argument("--round", type=int, default=0, help="the round (default: the current one)")
    choose.add_argument("--table", type=int, default=0, help="the table (default: the player's table)")
    side = verb("side-deck", "between games, swap cards one for one with the side deck", run_side_deck, player=True)
    side.add_argument("--out", action="append", default=[], metavar="CARD", help="a card out of the deck (repeat)")
    side.add_argument("--in", dest="into", action="append", default=[], metavar="CARD", help="a side card in (repeat)")
    side.add_argument("--round", type=int, default=0, help="the round (default: the current one)")
    side.add_argument("--table", type=int, default=0, help="the table (default: the player's table)")
    events = verb("events", "the audit trail, a page at a time", run_events)
    events.add_argument("--from", dest="from_version", type=int, default=0, help="the first version (default: 1)")
    events.add_argument("--limit", type=int, default=0, help="events per page, at most 1,000 (default: 500)")
    events.add_argument("--all", action="store_true", help="every page, not just the first")
    watch = verb("watch", "follow the tournament as it happens, until it ends", run_watch, admin=False)
    watch.add_argument("--from", dest="from_version", type=int, default=0, help="the first version (default: 1)")
    watch.add_argument("--player", default="", help="only what concerns this player (with --token)")
    watch.add_argument(
        "--token",
        default=os.environ.get(PLAYER_TOKEN_ENV, "") or os.environ.get("DUELHALL_ADMIN_TOKEN", ""),
        help=f"the player's token or the admin token (default: ${PLAYER_TOKEN_ENV}, else $DUELHALL_ADMIN_TOKEN)",
    )
    play = verb("play", "a bot plays the player's games with the player's token, until the end", run_play, player=True)
    play.add_argument("--bot", choices=BOT_KINDS, default="random", help="the bot's level (default: random)")
    play.add_argument("--seed", type=int, default=0, help="seed of the bot's choices (default: 0)")
    reissue = verb("reissue", "a new token for a player; the old one stops working", run_reissue)
    reissue.add_argument("player", help="the player")
    reissue.add_argument("--by", required=True, help="who re-issues it (kept in the audit trail)")
    reissue.add_argument("--why", required=True, help="why (kept in the audit trail)")
    publish = verb("publish", "lift the embargo on the replays before the end", run_publish)
    publish.add_argument("--by", required=True, help="who publishes them (kept in the audit trail)")
    publish.add_argument("--why", required=True, help="why (kept in the audit trail)")
