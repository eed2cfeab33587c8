"""Turn order and phases (AA-2, AA-3), income (AA-3), game end (AA-R11)."""

from __future__ import annotations

from domain.aa1942_convoy.state import PHASES, TURN_ORDER, State
from events.aa1942_convoy import IncomeCollected, PhaseBegan, RoundBegan
from events.core import GameEnded
from events.vocabulary import Event


def income_of(state: State, power: str) -> int:
    """AA-3 (A&A 1942.2 Collect Income): the IPC values of the territories held; none without the capital."""
    if not state.holds_capital(power):
        return 0
    return sum(state.map.land_territories[t].ipc for t, owner in state.control.items() if owner == power)


def end_phase(state: State) -> list[Event]:
    """AA-3: purchase -> combat move -> combat -> noncombat move -> mobilize -> collect income -> next power."""
    if state.phase != "mobilize":
        return [PhaseBegan(round=state.round, power=state.power, phase=PHASES[PHASES.index(state.phase) + 1])]
    income = income_of(state, state.power)
    events: list[Event] = [
        IncomeCollected(power=state.power, income=income, treasury=state.treasury[state.power] + income)
    ]
    if last_turn(state):
        return events + [GameEnded(reason=f"round {state.rounds}, the last of option rounds, is over")]
    turn, rnd = state.turn + 1, state.round
    if turn == len(TURN_ORDER):
        turn, rnd = 0, rnd + 1
        events.append(RoundBegan(round=rnd))
    return events + begin_turn(state, TURN_ORDER[turn], rnd)


def last_turn(state: State) -> bool:
    """Whether the acting power's turn ends the game: the last power's turn of round `rounds` (an option)."""
    return state.rounds is not None and state.turn == len(TURN_ORDER) - 1 and state.round >= state.rounds


def begin_turn(state: State, power: str, rnd: int) -> list[Event]:
    """The chips under its markers wait for its payment (AA-11, `purchase.purchase`)."""
    return [PhaseBegan(round=rnd, power=power, phase="purchase")]


def end_game(reason: str) -> list[Event]:
    """AA-R11: the referee ends the game (A&A's victory cities are outside this ledger)."""
    return [GameEnded(reason=reason)]
