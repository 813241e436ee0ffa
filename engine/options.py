"""Match options checked against a ruleset's own ``Options`` Struct: names, types and ranges.

The ruleset declares each option once, as a field of its msgspec ``Options`` with its default and, for
numbers, ``Annotated[int, msgspec.Meta(ge=..., le=...)]``; closed sets are ``Literal``. JSON ``true`` is
not an integer (msgspec never converts a bool to an int), and no value is coerced.

Policy: every problem is found, names in sorted order (``option_problems``); a ruleset whose spec
reports one problem raises the first unknown name if there is one, else the first invalid value
(``check_options``).
"""

from __future__ import annotations

import functools
from typing import Any, TypeVar

import msgspec

from engine.errors import BAD_CONFIG, ConfigError

T = TypeVar("T", bound=msgspec.Struct)


class OptionProblem(msgspec.Struct, frozen=True):
    """One option that is not accepted: its name and whether the name itself is unknown."""

    name: str
    unknown: bool


@functools.cache
def _field_types(options: type[msgspec.Struct]) -> dict[str, Any]:
    return {field.encode_name: field.type for field in msgspec.structs.fields(options)}


def option_problems(raw: dict[str, Any], options: type[msgspec.Struct]) -> list[OptionProblem]:
    """Every unknown name and every invalid value of ``raw``, by name in sorted order."""
    fields = _field_types(options)
    problems: list[OptionProblem] = []
    for name in sorted(raw, key=str):
        if name not in fields:
            problems.append(OptionProblem(str(name), unknown=True))
            continue
        try:
            msgspec.convert(raw[name], fields[name], strict=True)
        except msgspec.ValidationError:
            problems.append(OptionProblem(name, unknown=False))
    return problems


def check_options(raw: Any, options: type[T], *, unknown: str, invalid: str) -> T:
    """The ruleset's ``Options`` for ``raw``, or ``ConfigError`` naming the first problem (see the policy)."""
    if not isinstance(raw, dict):
        raise ConfigError(BAD_CONFIG, None, "'options' must be an object")
    problems = option_problems(raw, options)
    first = next((p for p in problems if p.unknown), problems[0] if problems else None)
    if first is not None:
        raise ConfigError(unknown if first.unknown else invalid, None, first.name)
    return msgspec.convert(raw, options, strict=True)


def defaults(options: type[msgspec.Struct]) -> dict[str, Any]:
    """The options a match gets when it names none, as JSON values (served by the API)."""
    built: dict[str, Any] = msgspec.to_builtins(options())
    return built
