from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SeatKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEAT_KIND_PLAYER: _ClassVar[SeatKind]
    SEAT_KIND_OPEN: _ClassVar[SeatKind]
    SEAT_KIND_BOT: _ClassVar[SeatKind]

class Spectators(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SPECTATORS_UNSPECIFIED: _ClassVar[Spectators]
    SPECTATORS_PUBLIC: _ClassVar[Spectators]
    SPECTATORS_TOKEN: _ClassVar[Spectators]
    SPECTATORS_NONE: _ClassVar[Spectators]

class MatchStatus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MATCH_STATUS_UNSPECIFIED: _ClassVar[MatchStatus]
    MATCH_STATUS_RUNNING: _ClassVar[MatchStatus]
    MATCH_STATUS_ENDED: _ClassVar[MatchStatus]

class LifecycleKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    LIFECYCLE_KIND_UNSPECIFIED: _ClassVar[LifecycleKind]
    LIFECYCLE_KIND_CREATED: _ClassVar[LifecycleKind]
    LIFECYCLE_KIND_ENDED: _ClassVar[LifecycleKind]
SEAT_KIND_PLAYER: SeatKind
SEAT_KIND_OPEN: SeatKind
SEAT_KIND_BOT: SeatKind
SPECTATORS_UNSPECIFIED: Spectators
SPECTATORS_PUBLIC: Spectators
SPECTATORS_TOKEN: Spectators
SPECTATORS_NONE: Spectators
MATCH_STATUS_UNSPECIFIED: MatchStatus
MATCH_STATUS_RUNNING: MatchStatus
MATCH_STATUS_ENDED: MatchStatus
LIFECYCLE_KIND_UNSPECIFIED: LifecycleKind
LIFECYCLE_KIND_CREATED: LifecycleKind
LIFECYCLE_KIND_ENDED: LifecycleKind

class ListRulesetsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class RulesetSummary(_message.Message):
    __slots__ = ("id", "version", "title", "min_seats", "max_seats", "card_data_hash")
    ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    MIN_SEATS_FIELD_NUMBER: _ClassVar[int]
    MAX_SEATS_FIELD_NUMBER: _ClassVar[int]
    CARD_DATA_HASH_FIELD_NUMBER: _ClassVar[int]
    id: str
    version: int
    title: str
    min_seats: int
    max_seats: int
    card_data_hash: str
    def __init__(self, id: _Optional[str] = ..., version: _Optional[int] = ..., title: _Optional[str] = ..., min_seats: _Optional[int] = ..., max_seats: _Optional[int] = ..., card_data_hash: _Optional[str] = ...) -> None: ...

class ListRulesetsResponse(_message.Message):
    __slots__ = ("rulesets", "versions")
    RULESETS_FIELD_NUMBER: _ClassVar[int]
    VERSIONS_FIELD_NUMBER: _ClassVar[int]
    rulesets: _containers.RepeatedCompositeFieldContainer[RulesetSummary]
    versions: _containers.RepeatedCompositeFieldContainer[RulesetSummary]
    def __init__(self, rulesets: _Optional[_Iterable[_Union[RulesetSummary, _Mapping]]] = ..., versions: _Optional[_Iterable[_Union[RulesetSummary, _Mapping]]] = ...) -> None: ...

class DescribeRulesetRequest(_message.Message):
    __slots__ = ("ruleset", "version")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    ruleset: str
    version: int
    def __init__(self, ruleset: _Optional[str] = ..., version: _Optional[int] = ...) -> None: ...

class DescribeRulesetResponse(_message.Message):
    __slots__ = ("ruleset", "config_schema_json", "command_schema_json", "event_schema_json", "view_schema_json", "presets_json", "options_json", "cards_json", "layout_json")
    RULESET_FIELD_NUMBER: _ClassVar[int]
    CONFIG_SCHEMA_JSON_FIELD_NUMBER: _ClassVar[int]
    COMMAND_SCHEMA_JSON_FIELD_NUMBER: _ClassVar[int]
    EVENT_SCHEMA_JSON_FIELD_NUMBER: _ClassVar[int]
    VIEW_SCHEMA_JSON_FIELD_NUMBER: _ClassVar[int]
    PRESETS_JSON_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    CARDS_JSON_FIELD_NUMBER: _ClassVar[int]
    LAYOUT_JSON_FIELD_NUMBER: _ClassVar[int]
    ruleset: RulesetSummary
    config_schema_json: str
    command_schema_json: str
    event_schema_json: str
    view_schema_json: str
    presets_json: str
    options_json: str
    cards_json: str
    layout_json: str
    def __init__(self, ruleset: _Optional[_Union[RulesetSummary, _Mapping]] = ..., config_schema_json: _Optional[str] = ..., command_schema_json: _Optional[str] = ..., event_schema_json: _Optional[str] = ..., view_schema_json: _Optional[str] = ..., presets_json: _Optional[str] = ..., options_json: _Optional[str] = ..., cards_json: _Optional[str] = ..., layout_json: _Optional[str] = ...) -> None: ...

class SeatSpec(_message.Message):
    __slots__ = ("name", "config_json", "kind", "bot_level")
    NAME_FIELD_NUMBER: _ClassVar[int]
    CONFIG_JSON_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    BOT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    name: str
    config_json: str
    kind: SeatKind
    bot_level: str
    def __init__(self, name: _Optional[str] = ..., config_json: _Optional[str] = ..., kind: _Optional[_Union[SeatKind, str]] = ..., bot_level: _Optional[str] = ...) -> None: ...

class SeatInfo(_message.Message):
    __slots__ = ("seat", "name", "kind", "bot_level")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    BOT_LEVEL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    name: str
    kind: SeatKind
    bot_level: str
    def __init__(self, seat: _Optional[int] = ..., name: _Optional[str] = ..., kind: _Optional[_Union[SeatKind, str]] = ..., bot_level: _Optional[str] = ...) -> None: ...

class CreateMatchRequest(_message.Message):
    __slots__ = ("ruleset", "seats", "options_json", "request_id", "labels", "spectators", "ruleset_version", "caster_delay_seconds")
    class LabelsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    RULESET_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_JSON_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    SPECTATORS_FIELD_NUMBER: _ClassVar[int]
    RULESET_VERSION_FIELD_NUMBER: _ClassVar[int]
    CASTER_DELAY_SECONDS_FIELD_NUMBER: _ClassVar[int]
    ruleset: str
    seats: _containers.RepeatedCompositeFieldContainer[SeatSpec]
    options_json: str
    request_id: str
    labels: _containers.ScalarMap[str, str]
    spectators: Spectators
    ruleset_version: int
    caster_delay_seconds: int
    def __init__(self, ruleset: _Optional[str] = ..., seats: _Optional[_Iterable[_Union[SeatSpec, _Mapping]]] = ..., options_json: _Optional[str] = ..., request_id: _Optional[str] = ..., labels: _Optional[_Mapping[str, str]] = ..., spectators: _Optional[_Union[Spectators, str]] = ..., ruleset_version: _Optional[int] = ..., caster_delay_seconds: _Optional[int] = ...) -> None: ...

class SeatToken(_message.Message):
    __slots__ = ("seat", "token")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    token: str
    def __init__(self, seat: _Optional[int] = ..., token: _Optional[str] = ...) -> None: ...

class CreateMatchResponse(_message.Message):
    __slots__ = ("match", "tokens", "spectator_token", "caster_token")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    SPECTATOR_TOKEN_FIELD_NUMBER: _ClassVar[int]
    CASTER_TOKEN_FIELD_NUMBER: _ClassVar[int]
    match: Match
    tokens: _containers.RepeatedCompositeFieldContainer[SeatToken]
    spectator_token: str
    caster_token: str
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ..., tokens: _Optional[_Iterable[_Union[SeatToken, _Mapping]]] = ..., spectator_token: _Optional[str] = ..., caster_token: _Optional[str] = ...) -> None: ...

class Match(_message.Message):
    __slots__ = ("match_id", "ruleset", "ruleset_version", "seats", "status", "version", "outcome_json", "created_at", "updated_at", "seed_commitment", "labels", "spectators", "seat_info", "open_seats", "presence")
    class LabelsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    RULESET_VERSION_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_JSON_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    SEED_COMMITMENT_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    SPECTATORS_FIELD_NUMBER: _ClassVar[int]
    SEAT_INFO_FIELD_NUMBER: _ClassVar[int]
    OPEN_SEATS_FIELD_NUMBER: _ClassVar[int]
    PRESENCE_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    ruleset: str
    ruleset_version: int
    seats: _containers.RepeatedScalarFieldContainer[str]
    status: MatchStatus
    version: int
    outcome_json: str
    created_at: str
    updated_at: str
    seed_commitment: str
    labels: _containers.ScalarMap[str, str]
    spectators: Spectators
    seat_info: _containers.RepeatedCompositeFieldContainer[SeatInfo]
    open_seats: int
    presence: _containers.RepeatedCompositeFieldContainer[SeatPresence]
    def __init__(self, match_id: _Optional[str] = ..., ruleset: _Optional[str] = ..., ruleset_version: _Optional[int] = ..., seats: _Optional[_Iterable[str]] = ..., status: _Optional[_Union[MatchStatus, str]] = ..., version: _Optional[int] = ..., outcome_json: _Optional[str] = ..., created_at: _Optional[str] = ..., updated_at: _Optional[str] = ..., seed_commitment: _Optional[str] = ..., labels: _Optional[_Mapping[str, str]] = ..., spectators: _Optional[_Union[Spectators, str]] = ..., seat_info: _Optional[_Iterable[_Union[SeatInfo, _Mapping]]] = ..., open_seats: _Optional[int] = ..., presence: _Optional[_Iterable[_Union[SeatPresence, _Mapping]]] = ...) -> None: ...

class SeatPresence(_message.Message):
    __slots__ = ("seat", "connected", "since")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CONNECTED_FIELD_NUMBER: _ClassVar[int]
    SINCE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    connected: bool
    since: str
    def __init__(self, seat: _Optional[int] = ..., connected: _Optional[bool] = ..., since: _Optional[str] = ...) -> None: ...

class GetMatchRequest(_message.Message):
    __slots__ = ("match_id", "min_version")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    MIN_VERSION_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    min_version: int
    def __init__(self, match_id: _Optional[str] = ..., min_version: _Optional[int] = ...) -> None: ...

class ListMatchesRequest(_message.Message):
    __slots__ = ("ruleset", "status", "page_size", "page_token", "labels", "token", "open_seats")
    class LabelsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    RULESET_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    PAGE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    OPEN_SEATS_FIELD_NUMBER: _ClassVar[int]
    ruleset: str
    status: MatchStatus
    page_size: int
    page_token: str
    labels: _containers.ScalarMap[str, str]
    token: str
    open_seats: bool
    def __init__(self, ruleset: _Optional[str] = ..., status: _Optional[_Union[MatchStatus, str]] = ..., page_size: _Optional[int] = ..., page_token: _Optional[str] = ..., labels: _Optional[_Mapping[str, str]] = ..., token: _Optional[str] = ..., open_seats: _Optional[bool] = ...) -> None: ...

class JoinSeatRequest(_message.Message):
    __slots__ = ("match_id", "request_id", "name", "config_json", "seat")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    REQUEST_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    CONFIG_JSON_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    request_id: str
    name: str
    config_json: str
    seat: int
    def __init__(self, match_id: _Optional[str] = ..., request_id: _Optional[str] = ..., name: _Optional[str] = ..., config_json: _Optional[str] = ..., seat: _Optional[int] = ...) -> None: ...

class JoinSeatResponse(_message.Message):
    __slots__ = ("seat", "token", "match")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    MATCH_FIELD_NUMBER: _ClassVar[int]
    seat: int
    token: str
    match: Match
    def __init__(self, seat: _Optional[int] = ..., token: _Optional[str] = ..., match: _Optional[_Union[Match, _Mapping]] = ...) -> None: ...

class ListMatchesResponse(_message.Message):
    __slots__ = ("matches", "next_page_token")
    MATCHES_FIELD_NUMBER: _ClassVar[int]
    NEXT_PAGE_TOKEN_FIELD_NUMBER: _ClassVar[int]
    matches: _containers.RepeatedCompositeFieldContainer[Match]
    next_page_token: str
    def __init__(self, matches: _Optional[_Iterable[_Union[Match, _Mapping]]] = ..., next_page_token: _Optional[str] = ...) -> None: ...

class GetViewRequest(_message.Message):
    __slots__ = ("match_id", "token", "min_version")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    MIN_VERSION_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    token: str
    min_version: int
    def __init__(self, match_id: _Optional[str] = ..., token: _Optional[str] = ..., min_version: _Optional[int] = ...) -> None: ...

class GetViewResponse(_message.Message):
    __slots__ = ("seat", "version", "view_json", "to_act", "deadline")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    VIEW_JSON_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    version: int
    view_json: str
    to_act: _containers.RepeatedScalarFieldContainer[int]
    deadline: Deadline
    def __init__(self, seat: _Optional[int] = ..., version: _Optional[int] = ..., view_json: _Optional[str] = ..., to_act: _Optional[_Iterable[int]] = ..., deadline: _Optional[_Union[Deadline, _Mapping]] = ...) -> None: ...

class Deadline(_message.Message):
    __slots__ = ("seat", "timeout_json", "expires_at", "seconds")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TIMEOUT_JSON_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    SECONDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    timeout_json: str
    expires_at: str
    seconds: float
    def __init__(self, seat: _Optional[int] = ..., timeout_json: _Optional[str] = ..., expires_at: _Optional[str] = ..., seconds: _Optional[float] = ...) -> None: ...

class ListLegalCommandsRequest(_message.Message):
    __slots__ = ("match_id", "token", "min_version", "include_view")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    MIN_VERSION_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_VIEW_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    token: str
    min_version: int
    include_view: bool
    def __init__(self, match_id: _Optional[str] = ..., token: _Optional[str] = ..., min_version: _Optional[int] = ..., include_view: _Optional[bool] = ...) -> None: ...

class ListLegalCommandsResponse(_message.Message):
    __slots__ = ("seat", "version", "commands_json", "view_json", "to_act", "deadline")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    COMMANDS_JSON_FIELD_NUMBER: _ClassVar[int]
    VIEW_JSON_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    version: int
    commands_json: _containers.RepeatedScalarFieldContainer[str]
    view_json: str
    to_act: _containers.RepeatedScalarFieldContainer[int]
    deadline: Deadline
    def __init__(self, seat: _Optional[int] = ..., version: _Optional[int] = ..., commands_json: _Optional[_Iterable[str]] = ..., view_json: _Optional[str] = ..., to_act: _Optional[_Iterable[int]] = ..., deadline: _Optional[_Union[Deadline, _Mapping]] = ...) -> None: ...

class SubmitCommandRequest(_message.Message):
    __slots__ = ("match_id", "token", "command_json", "command_id", "expected_version")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    COMMAND_JSON_FIELD_NUMBER: _ClassVar[int]
    COMMAND_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    token: str
    command_json: str
    command_id: str
    expected_version: int
    def __init__(self, match_id: _Optional[str] = ..., token: _Optional[str] = ..., command_json: _Optional[str] = ..., command_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("version", "type", "data_json", "actor", "recorded_at")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    DATA_JSON_FIELD_NUMBER: _ClassVar[int]
    ACTOR_FIELD_NUMBER: _ClassVar[int]
    RECORDED_AT_FIELD_NUMBER: _ClassVar[int]
    version: int
    type: str
    data_json: str
    actor: str
    recorded_at: str
    def __init__(self, version: _Optional[int] = ..., type: _Optional[str] = ..., data_json: _Optional[str] = ..., actor: _Optional[str] = ..., recorded_at: _Optional[str] = ...) -> None: ...

class SubmitCommandResponse(_message.Message):
    __slots__ = ("events", "version", "duplicate", "to_act")
    EVENTS_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    events: _containers.RepeatedCompositeFieldContainer[Event]
    version: int
    duplicate: bool
    to_act: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, events: _Optional[_Iterable[_Union[Event, _Mapping]]] = ..., version: _Optional[int] = ..., duplicate: _Optional[bool] = ..., to_act: _Optional[_Iterable[int]] = ...) -> None: ...

class WatchMatchRequest(_message.Message):
    __slots__ = ("match_id", "token", "from_version", "include_view", "caster")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    FROM_VERSION_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_VIEW_FIELD_NUMBER: _ClassVar[int]
    CASTER_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    token: str
    from_version: int
    include_view: bool
    caster: bool
    def __init__(self, match_id: _Optional[str] = ..., token: _Optional[str] = ..., from_version: _Optional[int] = ..., include_view: _Optional[bool] = ..., caster: _Optional[bool] = ...) -> None: ...

class MatchUpdate(_message.Message):
    __slots__ = ("event", "view_json", "match_ended", "deadline", "to_act", "presence")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    VIEW_JSON_FIELD_NUMBER: _ClassVar[int]
    MATCH_ENDED_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    PRESENCE_FIELD_NUMBER: _ClassVar[int]
    event: Event
    view_json: str
    match_ended: bool
    deadline: Deadline
    to_act: _containers.RepeatedScalarFieldContainer[int]
    presence: _containers.RepeatedCompositeFieldContainer[SeatPresence]
    def __init__(self, event: _Optional[_Union[Event, _Mapping]] = ..., view_json: _Optional[str] = ..., match_ended: _Optional[bool] = ..., deadline: _Optional[_Union[Deadline, _Mapping]] = ..., to_act: _Optional[_Iterable[int]] = ..., presence: _Optional[_Iterable[_Union[SeatPresence, _Mapping]]] = ...) -> None: ...

class MatchUpdateBatch(_message.Message):
    __slots__ = ("updates",)
    UPDATES_FIELD_NUMBER: _ClassVar[int]
    updates: _containers.RepeatedCompositeFieldContainer[MatchUpdate]
    def __init__(self, updates: _Optional[_Iterable[_Union[MatchUpdate, _Mapping]]] = ...) -> None: ...

class PlayRequest(_message.Message):
    __slots__ = ("start", "command")
    START_FIELD_NUMBER: _ClassVar[int]
    COMMAND_FIELD_NUMBER: _ClassVar[int]
    start: PlayStart
    command: PlayCommand
    def __init__(self, start: _Optional[_Union[PlayStart, _Mapping]] = ..., command: _Optional[_Union[PlayCommand, _Mapping]] = ...) -> None: ...

class PlayStart(_message.Message):
    __slots__ = ("match_id", "token", "from_version", "include_view")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    FROM_VERSION_FIELD_NUMBER: _ClassVar[int]
    INCLUDE_VIEW_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    token: str
    from_version: int
    include_view: bool
    def __init__(self, match_id: _Optional[str] = ..., token: _Optional[str] = ..., from_version: _Optional[int] = ..., include_view: _Optional[bool] = ...) -> None: ...

class PlayCommand(_message.Message):
    __slots__ = ("command_json", "command_id", "expected_version")
    COMMAND_JSON_FIELD_NUMBER: _ClassVar[int]
    COMMAND_ID_FIELD_NUMBER: _ClassVar[int]
    EXPECTED_VERSION_FIELD_NUMBER: _ClassVar[int]
    command_json: str
    command_id: str
    expected_version: int
    def __init__(self, command_json: _Optional[str] = ..., command_id: _Optional[str] = ..., expected_version: _Optional[int] = ...) -> None: ...

class PlayResponse(_message.Message):
    __slots__ = ("updates", "result", "turn")
    UPDATES_FIELD_NUMBER: _ClassVar[int]
    RESULT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    updates: _containers.RepeatedCompositeFieldContainer[MatchUpdate]
    result: CommandResult
    turn: PlayTurn
    def __init__(self, updates: _Optional[_Iterable[_Union[MatchUpdate, _Mapping]]] = ..., result: _Optional[_Union[CommandResult, _Mapping]] = ..., turn: _Optional[_Union[PlayTurn, _Mapping]] = ...) -> None: ...

class CommandResult(_message.Message):
    __slots__ = ("command_id", "version", "duplicate", "error")
    COMMAND_ID_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    DUPLICATE_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    command_id: str
    version: int
    duplicate: bool
    error: CommandError
    def __init__(self, command_id: _Optional[str] = ..., version: _Optional[int] = ..., duplicate: _Optional[bool] = ..., error: _Optional[_Union[CommandError, _Mapping]] = ...) -> None: ...

class CommandError(_message.Message):
    __slots__ = ("code", "reason", "message", "metadata")
    class MetadataEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    CODE_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    code: int
    reason: str
    message: str
    metadata: _containers.ScalarMap[str, str]
    def __init__(self, code: _Optional[int] = ..., reason: _Optional[str] = ..., message: _Optional[str] = ..., metadata: _Optional[_Mapping[str, str]] = ...) -> None: ...

class PlayTurn(_message.Message):
    __slots__ = ("version", "to_act", "commands_json")
    VERSION_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    COMMANDS_JSON_FIELD_NUMBER: _ClassVar[int]
    version: int
    to_act: _containers.RepeatedScalarFieldContainer[int]
    commands_json: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, version: _Optional[int] = ..., to_act: _Optional[_Iterable[int]] = ..., commands_json: _Optional[_Iterable[str]] = ...) -> None: ...

class ExportReplayRequest(_message.Message):
    __slots__ = ("match_id", "token")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    token: str
    def __init__(self, match_id: _Optional[str] = ..., token: _Optional[str] = ...) -> None: ...

class ExportReplayResponse(_message.Message):
    __slots__ = ("replay",)
    REPLAY_FIELD_NUMBER: _ClassVar[int]
    replay: bytes
    def __init__(self, replay: _Optional[bytes] = ...) -> None: ...

class ImportReplayRequest(_message.Message):
    __slots__ = ("replay",)
    REPLAY_FIELD_NUMBER: _ClassVar[int]
    replay: bytes
    def __init__(self, replay: _Optional[bytes] = ...) -> None: ...

class ImportReplayResponse(_message.Message):
    __slots__ = ("match_id", "imported", "uncovered")
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    IMPORTED_FIELD_NUMBER: _ClassVar[int]
    UNCOVERED_FIELD_NUMBER: _ClassVar[int]
    match_id: str
    imported: bool
    uncovered: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, match_id: _Optional[str] = ..., imported: _Optional[bool] = ..., uncovered: _Optional[_Iterable[str]] = ...) -> None: ...

class VerifyReplayRequest(_message.Message):
    __slots__ = ("replay",)
    REPLAY_FIELD_NUMBER: _ClassVar[int]
    replay: bytes
    def __init__(self, replay: _Optional[bytes] = ...) -> None: ...

class VerifyReplayResponse(_message.Message):
    __slots__ = ("ok", "failure", "checks", "uncovered")
    OK_FIELD_NUMBER: _ClassVar[int]
    FAILURE_FIELD_NUMBER: _ClassVar[int]
    CHECKS_FIELD_NUMBER: _ClassVar[int]
    UNCOVERED_FIELD_NUMBER: _ClassVar[int]
    ok: bool
    failure: ReplayFailure
    checks: _containers.RepeatedScalarFieldContainer[str]
    uncovered: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, ok: _Optional[bool] = ..., failure: _Optional[_Union[ReplayFailure, _Mapping]] = ..., checks: _Optional[_Iterable[str]] = ..., uncovered: _Optional[_Iterable[str]] = ...) -> None: ...

class ReplayFailure(_message.Message):
    __slots__ = ("check", "version", "message")
    CHECK_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    check: str
    version: int
    message: str
    def __init__(self, check: _Optional[str] = ..., version: _Optional[int] = ..., message: _Optional[str] = ...) -> None: ...

class ViewReplayRequest(_message.Message):
    __slots__ = ("replay", "match_id", "seat", "from_version", "max_steps", "token")
    REPLAY_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    FROM_VERSION_FIELD_NUMBER: _ClassVar[int]
    MAX_STEPS_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    replay: bytes
    match_id: str
    seat: int
    from_version: int
    max_steps: int
    token: str
    def __init__(self, replay: _Optional[bytes] = ..., match_id: _Optional[str] = ..., seat: _Optional[int] = ..., from_version: _Optional[int] = ..., max_steps: _Optional[int] = ..., token: _Optional[str] = ...) -> None: ...

class ReplayStep(_message.Message):
    __slots__ = ("event", "view_json", "to_act", "deadline")
    EVENT_FIELD_NUMBER: _ClassVar[int]
    VIEW_JSON_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    DEADLINE_FIELD_NUMBER: _ClassVar[int]
    event: Event
    view_json: str
    to_act: _containers.RepeatedScalarFieldContainer[int]
    deadline: Deadline
    def __init__(self, event: _Optional[_Union[Event, _Mapping]] = ..., view_json: _Optional[str] = ..., to_act: _Optional[_Iterable[int]] = ..., deadline: _Optional[_Union[Deadline, _Mapping]] = ...) -> None: ...

class ViewReplayResponse(_message.Message):
    __slots__ = ("match", "verification", "seat", "steps", "next_version")
    MATCH_FIELD_NUMBER: _ClassVar[int]
    VERIFICATION_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    NEXT_VERSION_FIELD_NUMBER: _ClassVar[int]
    match: Match
    verification: VerifyReplayResponse
    seat: int
    steps: _containers.RepeatedCompositeFieldContainer[ReplayStep]
    next_version: int
    def __init__(self, match: _Optional[_Union[Match, _Mapping]] = ..., verification: _Optional[_Union[VerifyReplayResponse, _Mapping]] = ..., seat: _Optional[int] = ..., steps: _Optional[_Iterable[_Union[ReplayStep, _Mapping]]] = ..., next_version: _Optional[int] = ...) -> None: ...

class WatchLifecycleRequest(_message.Message):
    __slots__ = ("from_position", "labels", "token")
    class LabelsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    FROM_POSITION_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    from_position: int
    labels: _containers.ScalarMap[str, str]
    token: str
    def __init__(self, from_position: _Optional[int] = ..., labels: _Optional[_Mapping[str, str]] = ..., token: _Optional[str] = ...) -> None: ...

class LifecycleChange(_message.Message):
    __slots__ = ("position", "kind", "match_id", "ruleset", "seats", "labels", "outcome_json", "version", "recorded_at")
    class LabelsEntry(_message.Message):
        __slots__ = ("key", "value")
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    POSITION_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    MATCH_ID_FIELD_NUMBER: _ClassVar[int]
    RULESET_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    LABELS_FIELD_NUMBER: _ClassVar[int]
    OUTCOME_JSON_FIELD_NUMBER: _ClassVar[int]
    VERSION_FIELD_NUMBER: _ClassVar[int]
    RECORDED_AT_FIELD_NUMBER: _ClassVar[int]
    position: int
    kind: LifecycleKind
    match_id: str
    ruleset: str
    seats: _containers.RepeatedScalarFieldContainer[str]
    labels: _containers.ScalarMap[str, str]
    outcome_json: str
    version: int
    recorded_at: str
    def __init__(self, position: _Optional[int] = ..., kind: _Optional[_Union[LifecycleKind, str]] = ..., match_id: _Optional[str] = ..., ruleset: _Optional[str] = ..., seats: _Optional[_Iterable[str]] = ..., labels: _Optional[_Mapping[str, str]] = ..., outcome_json: _Optional[str] = ..., version: _Optional[int] = ..., recorded_at: _Optional[str] = ...) -> None: ...
