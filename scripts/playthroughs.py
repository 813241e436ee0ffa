"""Golden playthroughs (after OpenSpiel's ``playthroughs/*.txt``): one fixed bot match per ruleset.

Each registered ruleset plays one match from a fixed seed with fixed random bots, and the transcript goes to
``tests/engine/playthroughs/<ruleset>.txt``: a header, then per step the actor and its command, the events, and
for every seat its legal commands and its view, then the spectator's view. Any change of a ruleset's behaviour
shows up as a diff of these files, reviewed like code; tests/engine/test_playthroughs.py fails while they are
stale.

    python scripts/playthroughs.py            # regenerate every file
    python scripts/playthroughs.py --check    # exit 1 with a unified diff when a file differs
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import msgspec

from engine.bots import RandomBot
from engine.contract import Ruleset
from engine.match import apply, create, fold
from engine.registry import RULESETS
from engine.rng import Rng
from engine.selfplay import next_move

ROOT = Path(__file__).resolve().parent.parent
DIRECTORY = ROOT / "tests" / "engine" / "playthroughs"
SEED_INT = 20_240_601
SEED = SEED_INT.to_bytes(32, "big")
BOT_SEEDS = 1_000
"""Seat ``i`` is ``RandomBot(BOT_SEEDS + i)``."""
MAX_COMMANDS = 60
MAX_BYTES = 80_000
"""No step starts once a transcript has reached this size: views are kilobytes each, and the files together
should stay a few hundred KB."""

# Sorted dict keys and sets: the text cannot depend on insertion or hash order; struct fields keep their
# declaration order, so events and commands read as the store holds them.
_encoder = msgspec.json.Encoder(order="deterministic")


def players(ruleset: Ruleset) -> int:
    """The seats the ruleset shows itself best at (``showcase_seats``), else its minimum."""
    return ruleset.showcase_seats or ruleset.min_seats


def path_for(ruleset_id: str) -> Path:
    return DIRECTORY / f"{ruleset_id}.txt"


def _json(value: Any) -> str:
    return _encoder.encode(value).decode()


def transcript(ruleset: Ruleset) -> str:
    """The whole playthrough of ``ruleset`` as text, one newline-terminated line per item."""
    return "".join(line + "\n" for chunk in _chunks(ruleset) for line in chunk)


def _chunks(ruleset: Ruleset) -> Iterator[list[str]]:
    """The header with step 0, then one block of lines per command; stops at the outcome, MAX_COMMANDS or
    once MAX_BYTES are out (the step that crosses it is kept whole)."""
    n = players(ruleset)
    seats = [f"p{i}" for i in range(n)]
    bots = [RandomBot(BOT_SEEDS + i) for i in range(n)]
    events = create(ruleset, {"seats": [{} for _ in seats], "options": {}}, seats, SEED)
    match = fold(ruleset, events)
    block = [*_header(ruleset, seats), "", "step 0: create", *_after(ruleset, match.state, events, n)]
    size, commands = 0, 0
    while True:
        size += sum(len(line) + 1 for line in block)
        yield block
        if ruleset.outcome(match.state) is not None or commands == MAX_COMMANDS or size >= MAX_BYTES:
            break
        actor, command = next_move(ruleset, match.state, bots)
        new = ruleset.decide(match.state, actor, command, Rng(SEED, match.version + 1))
        match = apply(ruleset, match, new)
        commands += 1
        block = ["", f"step {commands}: {_actor(actor)} {_json(command)}", *_after(ruleset, match.state, new, n)]
    outcome = ruleset.outcome(match.state)
    ending = _json(outcome) if outcome is not None else f"none yet, stopped after {commands} commands"
    yield ["", f"outcome {ending}"]


def _header(ruleset: Ruleset, seats: list[str]) -> list[str]:
    return [
        "# Golden playthrough: regenerate with `python scripts/playthroughs.py`, review changes as a diff.",
        f"ruleset {ruleset.id}",
        f"version {ruleset.version}",
        f"card_data_hash {ruleset.card_data_hash}",
        f"seed {SEED_INT} as 32 bytes big-endian, {SEED.hex()}",
        f"seats {' '.join(seats)}",
        f"bots {' '.join(f'random({BOT_SEEDS + i})' for i in range(len(seats)))}",
        f"limits {MAX_COMMANDS} commands, no step after {MAX_BYTES} bytes",
    ]


def _after(ruleset: Ruleset, state: Any, events: Sequence[Any], n: int) -> list[str]:
    """The events of a step, then what every seat and a spectator see and may do afterwards."""
    lines = [f"  event {_json(event)}" for event in events]
    lines.append(f"  to_act {_json(ruleset.to_act(state))}")
    for seat in range(n):
        legal = ruleset.legal_commands(state, seat)
        lines.extend(f"  seat {seat} legal {_json(command)}" for command in legal)
        if not legal:
            lines.append(f"  seat {seat} legal none")
        lines.append(f"  seat {seat} view {_json(ruleset.view(state, seat))}")
    lines.append(f"  spectator view {_json(ruleset.view(state, None))}")
    return lines


def _actor(actor: Any) -> str:
    return f"seat {actor}" if isinstance(actor, int) else str(actor)


def diff(expected: str, actual: str, name: str) -> list[str]:
    """The unified diff from the committed text to the regenerated one, as lines ending in newlines.

    As ``difflib.unified_diff``, but without its junk heuristic: in a transcript the commonest lines (``legal
    {"type":"concede"}``) would count as junk and show as changed around every real change.
    """
    a, b = expected.splitlines(keepends=True), actual.splitlines(keepends=True)
    groups = difflib.SequenceMatcher(None, a, b, autojunk=False).get_grouped_opcodes(1)
    lines: list[str] = []
    for group in groups:
        if not lines:
            lines += [f"--- {name} (committed)\n", f"+++ {name} (regenerated)\n"]
        first, last = group[0], group[-1]
        lines.append(f"@@ -{_range(first[1], last[2])} +{_range(first[3], last[4])} @@\n")
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                lines += [" " + line for line in a[i1:i2]]
                continue
            lines += ["-" + line for line in a[i1:i2]]
            lines += ["+" + line for line in b[j1:j2]]
    return lines


def _range(start: int, stop: int) -> str:
    """A hunk range as unified diffs write it (``difflib._format_range_unified``)."""
    length = stop - start
    if length == 1:
        return str(start + 1)
    return f"{start + 1 if length else start},{length}"


def short_diff(lines: list[str], max_lines: int = 40, width: int = 160) -> str:
    """A diff cut to ``max_lines`` lines of at most about ``width`` characters, for a test failure.

    A view is one long line: a changed line is shown around its first difference from its counterpart (the
    line at the same place in the other side of the hunk), so the change is visible, not only the prefix.
    """
    out: list[str] = []
    removed: list[str] = []
    for line in lines:
        if line.startswith("-") and not line.startswith("---"):
            removed.append(line)
            continue
        counterpart = removed.pop(0) if line.startswith("+") and removed and not line.startswith("+++") else None
        if counterpart is None:
            out.extend(_clip(r, None, width) for r in removed)
            removed = []
            out.append(_clip(line, None, width))
        else:
            out.append(_clip(counterpart, line, width))
            out.append(_clip(line, counterpart, width))
    out.extend(_clip(r, None, width) for r in removed)
    if len(out) > max_lines:
        out = [*out[:max_lines], f"... {len(out) - max_lines} more diff lines\n"]
    return "".join(out)


def _clip(line: str, other: str | None, width: int) -> str:
    text = line.rstrip("\n")
    if len(text) <= width:
        return text + "\n"
    at = _first_difference(text[1:], other[1:]) + 1 if other is not None else 0
    if at < width - 20:
        return text[:width] + " ...\n"
    head = width // 4
    start = at - (width - head) // 2
    tail = " ..." if start + width - head < len(text) else ""
    return f"{text[:head]} ... {text[start : start + width - head]}{tail}\n"


def _first_difference(a: str, b: str) -> int:
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


def stale(ruleset_id: str) -> str:
    """The diff of the committed file against a fresh transcript ('' when they agree)."""
    path = path_for(ruleset_id)
    committed = path.read_text() if path.exists() else ""
    return "".join(diff(committed, transcript(RULESETS[ruleset_id]), path.relative_to(ROOT).as_posix()))


def strays() -> list[Path]:
    """Transcripts in the directory whose ruleset is no longer registered."""
    return sorted(p for p in DIRECTORY.glob("*.txt") if p.stem not in RULESETS)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare only; exit 1 and print a diff if stale")
    args = parser.parse_args(argv)
    status = 0
    for ruleset_id in sorted(RULESETS):
        if args.check:
            text = stale(ruleset_id)
            if text:
                sys.stdout.write(text)
                status = 1
        else:
            DIRECTORY.mkdir(parents=True, exist_ok=True)
            path_for(ruleset_id).write_text(transcript(RULESETS[ruleset_id]))
            print(path_for(ruleset_id).relative_to(ROOT))
    for path in strays():
        print(f"{path.relative_to(ROOT)}: no registered ruleset {path.stem!r}; delete it", file=sys.stderr)
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
