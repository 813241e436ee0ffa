from services.api import duelhall_pb2 as _duelhall_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CreateTournamentRequest(_message.Message):
    __slots__ = ("admin_token", "name", "ruleset", "format", "rounds", "cut", "best_of", "tiebreak", "round_minutes", "seed_hex", "options_json", "ruleset_version", "spectators", "caster_delay_seconds", "decklists", "chooser_seconds", "labels", "deck_rule", "fixed_deck_json")
    class LabelsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ADMIN_TOKEN_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    CUT_FIELD_NUMBER: _ClassVar[int]
    BEST_OF_FIELD_NUMBER: _ClassVar[int]
    TIEBREAK_FIELD_NUMBER: _ClassVar[int]
    ROUND_MINUTES_FIELD_NUMBER: _ClassVar[int]
    SEED_HEX_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    RULESET_VERSION_FIELD_NUMBER: _ClassVar[int]
    SPECTATORS_FIELD_NUMBER: _ClassVar[int]
    CASTER_DELAY_SECONDS_FIELD_NUMBER: _ClassVar[int]
    DECKLISTS_FIELD_NUMBER: _ClassVar[int]
    CHOOSER_SECONDS_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    DECK_RULE_FIELD_NUMBER: _ClassVar[int]
    FIXED_DECK_JSON_FIELD_NUMBER: _ClassVar[int]
    admin_token: str
    name: str
    ruleset: str
    format: str
    rounds: int
    cut: int
    best_of: int
    tiebreak: str
    round_minutes: int
    seed_hex: str
    options_json: str
    ruleset_version: int
    spectators: _duelhall_pb2.Spectators
    caster_delay_seconds: int
    decklists: str
    chooser_seconds: int
    labels: _containers.ScalarMap[str, str]
    deck_rule: str
    fixed_deck_json: str
    def __init__(self, admin_token: _Optional[str] = ..., name: _Optional[str] = ..., ruleset: _Optional[str] = ..., format: _Optional[str] = ..., rounds: _Optional[int] = ..., cut: _Optional[int] = ..., best_of: _Optional[int] = ..., tiebreak: _Optional[str] = ..., round_minutes: _Optional[int] = ..., seed_hex: _Optional[str] = ..., options_json: _Optional[str] = ..., ruleset_version: _Optional[int] = ..., spectators: _Optional[_Union[_duelhall_pb2.Spectators, str]] = ..., caster_delay_seconds: _Optional[int] = ..., decklists: _Optional[str] = ..., chooser_seconds: _Optional[int] = ..., labels: _Optional[_Mapping[str, str]] = ..., deck_rule: _Optional[str] = ..., fixed_deck_json: _Optional[str] = ...) -> None: ...

class GetTournamentRequest(_message.Message):
    __slots__ = ("tournament_id", "admin_token", "from_version", "page_size")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    ADMIN_TOKEN_FIELD_NUMBER: _ClassVar[int]
    FROM_VERSION_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    admin_token: str
    from_version: int
    page_size: int
    def __init__(self, tournament_id: _Optional[str] = ..., admin_token: _Optional[str] = ..., from_version: _Optional[int] = ..., page_size: _Optional[int] = ...) -> None: ...

class TournamentPlayer(_message.Message):
    __slots__ = ("name", "checked_in", "dropped", "late", "seed", "rating")
    NAME_FIELD_NUMBER: _ClassVar[int]
    CHECKED_IN_FIELD_NUMBER: _ClassVar[int]
    DROPPED_FIELD_NUMBER: _ClassVar[int]
    LATE_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    name: str
    checked_in: bool
    dropped: bool
    late: bool
    seed: int
    rating: int
    def __init__(self, name: _Optional[str] = ..., checked_in: _Optional[bool] = ..., dropped: _Optional[bool] = ..., late: _Optional[bool] = ..., seed: _Optional[int] = ..., rating: _Optional[int] = ...) -> None: ...

class Tournament(_message.Message):
    __slots__ = ("tournament_id", "name", "ruleset", "format", "rounds", "cut", "best_of", "tiebreak", "round_minutes", "status", "current_round", "current_stage", "current_round_finished", "players", "winner", "version", "seed_hex", "replays_published", "ruleset_version", "spectators", "caster_delay_seconds", "decklists", "chooser_seconds", "labels", "round_ends_at", "deck_rule", "fixed_deck_json")
    class LabelsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    ROUNDS_FIELD_NUMBER: _ClassVar[int]
    CUT_FIELD_NUMBER: _ClassVar[int]
    BEST_OF_FIELD_NUMBER: _ClassVar[int]
    TIEBREAK_FIELD_NUMBER: _ClassVar[int]
    ROUND_MINUTES_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    CURRENT_ROUND_FIELD_NUMBER: _ClassVar[int]
    CURRENT_STAGE_FIELD_NUMBER: _ClassVar[int]
    CURRENT_ROUND_FINISHED_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    SEED_HEX_FIELD_NUMBER: _ClassVar[int]
    REPLAYS_PUBLISHED_FIELD_NUMBER: _ClassVar[int]
    RULESET_VERSION_FIELD_NUMBER: _ClassVar[int]
    SPECTATORS_FIELD_NUMBER: _ClassVar[int]
    CASTER_DELAY_SECONDS_FIELD_NUMBER: _ClassVar[int]
    DECKLISTS_FIELD_NUMBER: _ClassVar[int]
    CHOOSER_SECONDS_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    ROUND_ENDS_AT_FIELD_NUMBER: _ClassVar[int]
    DECK_RULE_FIELD_NUMBER: _ClassVar[int]
    FIXED_DECK_JSON_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    name: str
    ruleset: str
    format: str
    rounds: int
    cut: int
    best_of: int
    tiebreak: str
    round_minutes: int
    status: str
    current_round: int
    current_stage: str
    current_round_finished: bool
    players: _containers.RepeatedCompositeFieldContainer[TournamentPlayer]
    winner: str
    version: int
    seed_hex: str
    replays_published: bool
    ruleset_version: int
    spectators: _duelhall_pb2.Spectators
    caster_delay_seconds: int
    decklists: str
    chooser_seconds: int
    labels: _containers.ScalarMap[str, str]
    round_ends_at: str
    deck_rule: str
    fixed_deck_json: str
    def __init__(self, tournament_id: _Optional[str] = ..., name: _Optional[str] = ..., ruleset: _Optional[str] = ..., format: _Optional[str] = ..., rounds: _Optional[int] = ..., cut: _Optional[int] = ..., best_of: _Optional[int] = ..., tiebreak: _Optional[str] = ..., round_minutes: _Optional[int] = ..., status: _Optional[str] = ..., current_round: _Optional[int] = ..., current_stage: _Optional[str] = ..., current_round_finished: _Optional[bool] = ..., players: _Optional[_Iterable[_Union[TournamentPlayer, _Mapping]]] = ..., winner: _Optional[str] = ..., version: _Optional[int] = ..., seed_hex: _Optional[str] = ..., replays_published: _Optional[bool] = ..., ruleset_version: _Optional[int] = ..., spectators: _Optional[_Union[_duelhall_pb2.Spectators, str]] = ..., caster_delay_seconds: _Optional[int] = ..., decklists: _Optional[str] = ..., chooser_seconds: _Optional[int] = ..., labels: _Optional[_Mapping[str, str]] = ..., round_ends_at: _Optional[str] = ..., deck_rule: _Optional[str] = ..., fixed_deck_json: _Optional[str] = ...) -> None: ...

class RegisterRequest(_message.Message):
    __slots__ = ("admin_token", "tournament_id", "player", "deck_json", "seed", "rating")
    ADMIN_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    DECK_JSON_FIELD_NUMBER: _ClassVar[int]
    SEED_FIELD_NUMBER: _ClassVar[int]
    RATING_FIELD_NUMBER: _ClassVar[int]
    admin_token: str
    tournament_id: str
    player: str
    deck_json: str
    seed: int
    rating: int
    def __init__(self, admin_token: _Optional[str] = ..., tournament_id: _Optional[str] = ..., player: _Optional[str] = ..., deck_json: _Optional[str] = ..., seed: _Optional[int] = ..., rating: _Optional[int] = ...) -> None: ...

class RegisterResponse(_message.Message):
    __slots__ = ("tournament", "player_token")
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    player_token: str
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ..., player_token: _Optional[str] = ...) -> None: ...

class PlayerRequest(_message.Message):
    __slots__ = ("tournament_id", "player", "token")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    player: str
    token: str
    def __init__(self, tournament_id: _Optional[str] = ..., player: _Optional[str] = ..., token: _Optional[str] = ...) -> None: ...

class DropRequest(_message.Message):
    __slots__ = ("tournament_id", "player", "token", "by", "why")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    BY_FIELD_NUMBER: _ClassVar[int]
    WHY_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    player: str
    token: str
    by: str
    why: str
    def __init__(self, tournament_id: _Optional[str] = ..., player: _Optional[str] = ..., token: _Optional[str] = ..., by: _Optional[str] = ..., why: _Optional[str] = ...) -> None: ...

class OrganiserRequest(_message.Message):
    __slots__ = ("admin_token", "tournament_id")
    ADMIN_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    admin_token: str
    tournament_id: str
    def __init__(self, admin_token: _Optional[str] = ..., tournament_id: _Optional[str] = ...) -> None: ...

class AuditedRequest(_message.Message):
    __slots__ = ("admin_token", "tournament_id", "by", "why")
    ADMIN_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    BY_FIELD_NUMBER: _ClassVar[int]
    WHY_FIELD_NUMBER: _ClassVar[int]
    admin_token: str
    tournament_id: str
    by: str
    why: str
    def __init__(self, admin_token: _Optional[str] = ..., tournament_id: _Optional[str] = ..., by: _Optional[str] = ..., why: _Optional[str] = ...) -> None: ...

class ReportResultRequest(_message.Message):
    __slots__ = ("admin_token", "tournament_id", "round", "table", "wins_a", "wins_b", "draws", "correction", "by", "why")
    ADMIN_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    WINS_A_FIELD_NUMBER: _ClassVar[int]
    WINS_B_FIELD_NUMBER: _ClassVar[int]
    DRAWS_FIELD_NUMBER: _ClassVar[int]
    CORRECTION_FIELD_NUMBER: _ClassVar[int]
    BY_FIELD_NUMBER: _ClassVar[int]
    WHY_FIELD_NUMBER: _ClassVar[int]
    admin_token: str
    tournament_id: str
    round: int
    table: int
    wins_a: int
    wins_b: int
    draws: int
    correction: bool
    by: str
    why: str
    def __init__(self, admin_token: _Optional[str] = ..., tournament_id: _Optional[str] = ..., round: _Optional[int] = ..., table: _Optional[int] = ..., wins_a: _Optional[int] = ..., wins_b: _Optional[int] = ..., draws: _Optional[int] = ..., correction: _Optional[bool] = ..., by: _Optional[str] = ..., why: _Optional[str] = ...) -> None: ...

class GetPairingsRequest(_message.Message):
    __slots__ = ("tournament_id", "round", "admin_token")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    ADMIN_TOKEN_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    round: int
    admin_token: str
    def __init__(self, tournament_id: _Optional[str] = ..., round: _Optional[int] = ..., admin_token: _Optional[str] = ...) -> None: ...

class GameEntry(_message.Message):
    __slots__ = ("game", "first", "match_id", "winner", "played", "spectator_token", "caster_token")
    GAME_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    PLAYED_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_TOKEN_FIELD_NUMBER: _ClassVar[int]
    CASTER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    game: int
    first: str
    match_id: str
    winner: str
    played: bool
    spectator_token: str
    caster_token: str
    def __init__(self, game: _Optional[int] = ..., first: _Optional[str] = ..., match_id: _Optional[str] = ..., winner: _Optional[str] = ..., played: _Optional[bool] = ..., spectator_token: _Optional[str] = ..., caster_token: _Optional[str] = ...) -> None: ...

class TableResult(_message.Message):
    __slots__ = ("wins_a", "wins_b", "draws", "source")
    WINS_A_FIELD_NUMBER: _ClassVar[int]
    WINS_B_FIELD_NUMBER: _ClassVar[int]
    DRAWS_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    wins_a: int
    wins_b: int
    draws: int
    source: str
    def __init__(self, wins_a: _Optional[int] = ..., wins_b: _Optional[int] = ..., draws: _Optional[int] = ..., source: _Optional[str] = ...) -> None: ...

class TableEntry(_message.Message):
    __slots__ = ("table", "a", "b", "finished", "result", "games", "unverified_match_ids", "chooser", "loss", "chooser_deadline")
    TABLE_FIELD_NUMBER: _ClassVar[int]
    A_FIELD_NUMBER: _ClassVar[int]
    B_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    GAMES_FIELD_NUMBER: _ClassVar[int]
    UNVERIFIED_MATCH_IDS_FIELD_NUMBER: _ClassVar[int]
    CHOOSER_FIELD_NUMBER: _ClassVar[int]
    LOSS_FIELD_NUMBER: _ClassVar[int]
    CHOOSER_DEADLINE_FIELD_NUMBER: _ClassVar[int]
    table: int
    a: str
    b: str
    finished: bool
    result: TableResult
    games: _containers.RepeatedCompositeFieldContainer[GameEntry]
    unverified_match_ids: _containers.RepeatedScalarFieldContainer[str]
    chooser: str
    loss: bool
    chooser_deadline: str
    def __init__(self, table: _Optional[int] = ..., a: _Optional[str] = ..., b: _Optional[str] = ..., finished: _Optional[bool] = ..., result: _Optional[_Union[TableResult, _Mapping]] = ..., games: _Optional[_Iterable[_Union[GameEntry, _Mapping]]] = ..., unverified_match_ids: _Optional[_Iterable[str]] = ..., chooser: _Optional[str] = ..., loss: _Optional[bool] = ..., chooser_deadline: _Optional[str] = ...) -> None: ...

class Pairings(_message.Message):
    __slots__ = ("round", "stage", "tables")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    STAGE_FIELD_NUMBER: _ClassVar[int]
    TABLES_FIELD_NUMBER: _ClassVar[int]
    round: int
    stage: str
    tables: _containers.RepeatedCompositeFieldContainer[TableEntry]
    def __init__(self, round: _Optional[int] = ..., stage: _Optional[str] = ..., tables: _Optional[_Iterable[_Union[TableEntry, _Mapping]]] = ...) -> None: ...

class GetStandingsRequest(_message.Message):
    __slots__ = ("tournament_id", "through_round")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    THROUGH_ROUND_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    through_round: int
    def __init__(self, tournament_id: _Optional[str] = ..., through_round: _Optional[int] = ...) -> None: ...

class StandingEntry(_message.Message):
    __slots__ = ("rank", "player", "points", "wins", "losses", "draws", "byes", "tiebreaks", "dropped")
    RANK_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    WINS_FIELD_NUMBER: _ClassVar[int]
    LOSSES_FIELD_NUMBER: _ClassVar[int]
    DRAWS_FIELD_NUMBER: _ClassVar[int]
    BYES_FIELD_NUMBER: _ClassVar[int]
    TIEBREAKS_FIELD_NUMBER: _ClassVar[int]
    DROPPED_FIELD_NUMBER: _ClassVar[int]
    rank: int
    player: str
    points: int
    wins: int
    losses: int
    draws: int
    byes: int
    tiebreaks: _containers.RepeatedScalarFieldContainer[str]
    dropped: bool
    def __init__(self, rank: _Optional[int] = ..., player: _Optional[str] = ..., points: _Optional[int] = ..., wins: _Optional[int] = ..., losses: _Optional[int] = ..., draws: _Optional[int] = ..., byes: _Optional[int] = ..., tiebreaks: _Optional[_Iterable[str]] = ..., dropped: _Optional[bool] = ...) -> None: ...

class Standings(_message.Message):
    __slots__ = ("tiebreak", "tiebreak_names", "standings", "cut_seeds", "placings")
    TIEBREAK_FIELD_NUMBER: _ClassVar[int]
    TIEBREAK_NAMES_FIELD_NUMBER: _ClassVar[int]
    STANDINGS_FIELD_NUMBER: _ClassVar[int]
    CUT_SEEDS_FIELD_NUMBER: _ClassVar[int]
    PLACINGS_FIELD_NUMBER: _ClassVar[int]
    tiebreak: str
    tiebreak_names: _containers.RepeatedScalarFieldContainer[str]
    standings: _containers.RepeatedCompositeFieldContainer[StandingEntry]
    cut_seeds: _containers.RepeatedScalarFieldContainer[str]
    placings: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, tiebreak: _Optional[str] = ..., tiebreak_names: _Optional[_Iterable[str]] = ..., standings: _Optional[_Iterable[_Union[StandingEntry, _Mapping]]] = ..., cut_seeds: _Optional[_Iterable[str]] = ..., placings: _Optional[_Iterable[str]] = ...) -> None: ...

class Seat(_message.Message):
    __slots__ = ("round", "table", "game", "match_id", "seat", "token", "opponent", "opponent_deck_json")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_FIELD_NUMBER: _ClassVar[int]
    OPPONENT_DECK_JSON_FIELD_NUMBER: _ClassVar[int]
    round: int
    table: int
    game: int
    match_id: str
    seat: int
    token: str
    opponent: str
    opponent_deck_json: str
    def __init__(self, round: _Optional[int] = ..., table: _Optional[int] = ..., game: _Optional[int] = ..., match_id: _Optional[str] = ..., seat: _Optional[int] = ..., token: _Optional[str] = ..., opponent: _Optional[str] = ..., opponent_deck_json: _Optional[str] = ...) -> None: ...

class ChooseFirstRequest(_message.Message):
    __slots__ = ("tournament_id", "player", "token", "round", "table", "first")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    FIRST_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    player: str
    token: str
    round: int
    table: int
    first: str
    def __init__(self, tournament_id: _Optional[str] = ..., player: _Optional[str] = ..., token: _Optional[str] = ..., round: _Optional[int] = ..., table: _Optional[int] = ..., first: _Optional[str] = ...) -> None: ...

class SideDeckRequest(_message.Message):
    __slots__ = ("tournament_id", "player", "token", "round", "table", "removed", "added")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    REMOVED_FIELD_NUMBER: _ClassVar[int]
    ADDED_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    player: str
    token: str
    round: int
    table: int
    removed: _containers.RepeatedScalarFieldContainer[str]
    added: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, tournament_id: _Optional[str] = ..., player: _Optional[str] = ..., token: _Optional[str] = ..., round: _Optional[int] = ..., table: _Optional[int] = ..., removed: _Optional[_Iterable[str]] = ..., added: _Optional[_Iterable[str]] = ...) -> None: ...

class TournamentEvent(_message.Message):
    __slots__ = ("version", "type", "data_json", "recorded_at")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    DATA_JSON_FIELD_NUMBER: _ClassVar[int]
    RECORDED_AT_FIELD_NUMBER: _ClassVar[int]
    version: int
    type: str
    data_json: str
    recorded_at: str
    def __init__(self, version: _Optional[int] = ..., type: _Optional[str] = ..., data_json: _Optional[str] = ..., recorded_at: _Optional[str] = ...) -> None: ...

class TournamentEvents(_message.Message):
    __slots__ = ("events", "next_version")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_VERSION_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[TournamentEvent]
    next_version: int
    def __init__(self, events: _Optional[_Iterable[_Union[TournamentEvent, _Mapping]]] = ..., next_version: _Optional[int] = ...) -> None: ...

class WatchTournamentRequest(_message.Message):
    __slots__ = ("tournament_id", "from_version", "player", "token")
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    FROM_VERSION_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    from_version: int
    player: str
    token: str
    def __init__(self, tournament_id: _Optional[str] = ..., from_version: _Optional[int] = ..., player: _Optional[str] = ..., token: _Optional[str] = ...) -> None: ...

class WatchTournamentEntry(_message.Message):
    __slots__ = ("version", "type", "data_json", "recorded_at", "notices")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    DATA_JSON_FIELD_NUMBER: _ClassVar[int]
    RECORDED_AT_FIELD_NUMBER: _ClassVar[int]
    NOTICES_FIELD_NUMBER: _ClassVar[int]
    version: int
    type: str
    data_json: str
    recorded_at: str
    notices: _containers.RepeatedCompositeFieldContainer[WatchTournamentNotice]
    def __init__(self, version: _Optional[int] = ..., type: _Optional[str] = ..., data_json: _Optional[str] = ..., recorded_at: _Optional[str] = ..., notices: _Optional[_Iterable[_Union[WatchTournamentNotice, _Mapping]]] = ...) -> None: ...

class WatchTournamentNotice(_message.Message):
    __slots__ = ("round_paired", "table_ready", "bye", "chooser_waiting", "game_result", "match_result", "player_change", "ended")
    ROUND_PAIRED_FIELD_NUMBER: _ClassVar[int]
    TABLE_READY_FIELD_NUMBER: _ClassVar[int]
    BYE_FIELD_NUMBER: _ClassVar[int]
    CHOOSER_WAITING_FIELD_NUMBER: _ClassVar[int]
    GAME_RESULT_FIELD_NUMBER: _ClassVar[int]
    MATCH_RESULT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_CHANGE_FIELD_NUMBER: _ClassVar[int]
    ENDED_FIELD_NUMBER: _ClassVar[int]
    round_paired: WatchTournamentRoundPaired
    table_ready: WatchTournamentTableReady
    bye: WatchTournamentBye
    chooser_waiting: WatchTournamentChooserWaiting
    game_result: WatchTournamentGameResult
    match_result: WatchTournamentMatchResult
    player_change: WatchTournamentPlayerChange
    ended: WatchTournamentEnded
    def __init__(self, round_paired: _Optional[_Union[WatchTournamentRoundPaired, _Mapping]] = ..., table_ready: _Optional[_Union[WatchTournamentTableReady, _Mapping]] = ..., bye: _Optional[_Union[WatchTournamentBye, _Mapping]] = ..., chooser_waiting: _Optional[_Union[WatchTournamentChooserWaiting, _Mapping]] = ..., game_result: _Optional[_Union[WatchTournamentGameResult, _Mapping]] = ..., match_result: _Optional[_Union[WatchTournamentMatchResult, _Mapping]] = ..., player_change: _Optional[_Union[WatchTournamentPlayerChange, _Mapping]] = ..., ended: _Optional[_Union[WatchTournamentEnded, _Mapping]] = ...) -> None: ...

class WatchTournamentRoundPaired(_message.Message):
    __slots__ = ("round", "stage", "tables", "repaired")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    STAGE_FIELD_NUMBER: _ClassVar[int]
    TABLES_FIELD_NUMBER: _ClassVar[int]
    REPAIRED_FIELD_NUMBER: _ClassVar[int]
    round: int
    stage: str
    tables: int
    repaired: bool
    def __init__(self, round: _Optional[int] = ..., stage: _Optional[str] = ..., tables: _Optional[int] = ..., repaired: _Optional[bool] = ...) -> None: ...

class WatchTournamentTableReady(_message.Message):
    __slots__ = ("round", "table", "game", "match_id", "seats", "seat", "seat_token")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SEAT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    round: int
    table: int
    game: int
    match_id: str
    seats: _containers.RepeatedScalarFieldContainer[str]
    seat: int
    seat_token: str
    def __init__(self, round: _Optional[int] = ..., table: _Optional[int] = ..., game: _Optional[int] = ..., match_id: _Optional[str] = ..., seats: _Optional[_Iterable[str]] = ..., seat: _Optional[int] = ..., seat_token: _Optional[str] = ...) -> None: ...

class WatchTournamentBye(_message.Message):
    __slots__ = ("round", "table", "player")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    round: int
    table: int
    player: str
    def __init__(self, round: _Optional[int] = ..., table: _Optional[int] = ..., player: _Optional[str] = ...) -> None: ...

class WatchTournamentChooserWaiting(_message.Message):
    __slots__ = ("round", "table", "game", "chooser")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    CHOOSER_FIELD_NUMBER: _ClassVar[int]
    round: int
    table: int
    game: int
    chooser: str
    def __init__(self, round: _Optional[int] = ..., table: _Optional[int] = ..., game: _Optional[int] = ..., chooser: _Optional[str] = ...) -> None: ...

class WatchTournamentGameResult(_message.Message):
    __slots__ = ("round", "table", "game", "match_id", "winner", "counted")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    GAME_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    WINNER_FIELD_NUMBER: _ClassVar[int]
    COUNTED_FIELD_NUMBER: _ClassVar[int]
    round: int
    table: int
    game: int
    match_id: str
    winner: str
    counted: bool
    def __init__(self, round: _Optional[int] = ..., table: _Optional[int] = ..., game: _Optional[int] = ..., match_id: _Optional[str] = ..., winner: _Optional[str] = ..., counted: _Optional[bool] = ...) -> None: ...

class WatchTournamentMatchResult(_message.Message):
    __slots__ = ("round", "table", "a", "b", "result", "by", "why")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    TABLE_FIELD_NUMBER: _ClassVar[int]
    A_FIELD_NUMBER: _ClassVar[int]
    B_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    BY_FIELD_NUMBER: _ClassVar[int]
    WHY_FIELD_NUMBER: _ClassVar[int]
    round: int
    table: int
    a: str
    b: str
    result: TableResult
    by: str
    why: str
    def __init__(self, round: _Optional[int] = ..., table: _Optional[int] = ..., a: _Optional[str] = ..., b: _Optional[str] = ..., result: _Optional[_Union[TableResult, _Mapping]] = ..., by: _Optional[str] = ..., why: _Optional[str] = ...) -> None: ...

class WatchTournamentPlayerChange(_message.Message):
    __slots__ = ("player", "change", "by", "why")
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    CHANGE_FIELD_NUMBER: _ClassVar[int]
    BY_FIELD_NUMBER: _ClassVar[int]
    WHY_FIELD_NUMBER: _ClassVar[int]
    player: str
    change: str
    by: str
    why: str
    def __init__(self, player: _Optional[str] = ..., change: _Optional[str] = ..., by: _Optional[str] = ..., why: _Optional[str] = ...) -> None: ...

class WatchTournamentEnded(_message.Message):
    __slots__ = ("winner",)
    WINNER_FIELD_NUMBER: _ClassVar[int]
    winner: str
    def __init__(self, winner: _Optional[str] = ...) -> None: ...

class ReissueTokenRequest(_message.Message):
    __slots__ = ("admin_token", "tournament_id", "player", "by", "why")
    ADMIN_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    PLAYER_FIELD_NUMBER: _ClassVar[int]
    BY_FIELD_NUMBER: _ClassVar[int]
    WHY_FIELD_NUMBER: _ClassVar[int]
    admin_token: str
    tournament_id: str
    player: str
    by: str
    why: str
    def __init__(self, admin_token: _Optional[str] = ..., tournament_id: _Optional[str] = ..., player: _Optional[str] = ..., by: _Optional[str] = ..., why: _Optional[str] = ...) -> None: ...

class ReissueTokenResponse(_message.Message):
    __slots__ = ("tournament", "player_token")
    TOURNAMENT_FIELD_NUMBER: _ClassVar[int]
    PLAYER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    tournament: Tournament
    player_token: str
    def __init__(self, tournament: _Optional[_Union[Tournament, _Mapping]] = ..., player_token: _Optional[str] = ...) -> None: ...

class ListTournamentsRequest(_message.Message):
    __slots__ = ("status", "labels", "page_size", "page_token")
    class LabelsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    STATUS_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    status: str
    labels: _containers.ScalarMap[str, str]
    page_size: int
    page_token: str
    def __init__(self, status: _Optional[str] = ..., labels: _Optional[_Mapping[str, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ...) -> None: ...

class TournamentSummary(_message.Message):
    __slots__ = ("tournament_id", "name", "ruleset", "format", "status", "labels")
    class LabelsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    tournament_id: str
    name: str
    ruleset: str
    format: str
    status: str
    labels: _containers.ScalarMap[str, str]
    def __init__(self, tournament_id: _Optional[str] = ..., name: _Optional[str] = ..., ruleset: _Optional[str] = ..., format: _Optional[str] = ..., status: _Optional[str] = ..., labels: _Optional[_Mapping[str, str]] = ...) -> None: ...

class ListTournamentsResponse(_message.Message):
    __slots__ = ("tournaments", "next_page_token")
    TOURNAMENTS_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    tournaments: _containers.RepeatedCompositeFieldContainer[TournamentSummary]
    next_page_token: str
    def __init__(self, tournaments: _Optional[_Iterable[_Union[TournamentSummary, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class EditPairingsRequest(_message.Message):
    __slots__ = ("admin_token", "tournament_id", "round", "edit", "players", "by", "why")
    ADMIN_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOURNAMENT_ID_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    EDIT_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    BY_FIELD_NUMBER: _ClassVar[int]
    WHY_FIELD_NUMBER: _ClassVar[int]
    admin_token: str
    tournament_id: str
    round: int
    edit: str
    players: _containers.RepeatedScalarFieldContainer[str]
    by: str
    why: str
    def __init__(self, admin_token: _Optional[str] = ..., tournament_id: _Optional[str] = ..., round: _Optional[int] = ..., edit: _Optional[str] = ..., players: _Optional[_Iterable[str]] = ..., by: _Optional[str] = ..., why: _Optional[str] = ...) -> None: ...
