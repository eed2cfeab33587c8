"""What every ruleset's digest shares (its views.py `digest`, the engine's `Ruleset.digest`): the words for the
core's events and for counting. A digest line is plain English naming ships, boats, zones and results; it is built
from the events as the reader may read them (a sealed record's content only where the reader may read it), so it
says nothing the reader may not read."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from events.core import GameEnded, ServerSeedRevealed, SubmissionSealed
from events.vocabulary import Event

SEALED = "sealed from the other seats until the rules open them"  # true for every reader, the sender included
NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def times(n: int) -> str:
    """'once', 'twice', '3 times'."""
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def count(n: int, one: str, many: str | None = None) -> str:
    """'no hits', 'one hit', '2 hits' (words up to ten)."""
    word = one if n == 1 else (many or one + "s")
    return f"{NUMBERS[n] if 0 <= n < len(NUMBERS) else n} {word}"


def listed(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1] if items else ""


def tally(items: list[str]) -> list[str]:
    """Each distinct item once, in order, with how often it came: ['fire on deck twice', 'steering hit']."""
    return [item if n == 1 else f"{item} {times(n)}" for item, n in Counter(items).items()]


class Sent(str):
    """A seat's sealed submission, as a line; consecutive ones of the same kind become one (`tidy`). One wording for
    every reader (a digest depends on what the reader may read, never on who the reader is otherwise), true for the
    seat that sent it too: sealed from the others."""

    seat: str
    what: str


def sent(who: str, what: str) -> Sent:
    line = Sent(f"{who} sent its {what}, {SEALED}")
    line.seat, line.what = who, what
    return line


def tidy(lines: list[str]) -> list[str]:
    """The lines as a digest gives them: consecutive sealed submissions of one kind in one line ("Japan and Russia
    sent their fire orders")."""
    out: list[str] = []
    run: list[Sent] = []
    for line in [*lines, ""]:  # the last "" closes the last run
        if isinstance(line, Sent) and (not run or run[-1].what == line.what):
            run.append(line)
            continue
        if len(run) == 1:
            out.append(str(run[0]))
        elif run:
            out.append(f"{listed([r.seat for r in run])} sent their {run[0].what}, {SEALED}")
        run = [line] if isinstance(line, Sent) else []
        if line and not isinstance(line, Sent):
            out.append(line)
    return out


def core_line(e: Event, who: Callable[[str], str], kinds: dict[str, str]) -> str | None:
    """The line of one of the core's events, or None where it says nothing a player needs (seeds, rolls: each roll's
    result is in the ruleset's own event that follows it; opened seals: what they decided follows them). `who`
    names a seat; `kinds` names (a plural noun) each sealed command a seat submits: a sealed record of another kind
    is the rules' own bookkeeping, with no line."""
    if isinstance(e, SubmissionSealed):
        what = kinds.get(e.kind)
        return sent(who(e.seat), what) if what else None
    if isinstance(e, GameEnded):
        return f"The game ended: {e.reason}"
    if isinstance(e, ServerSeedRevealed):
        return "The referee revealed the server seed: every roll can now be checked"
    return None
