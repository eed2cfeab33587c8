"""The game's start: seats (AA-R12), the starting position (AA-2) and the submarine setup (AA-R16)."""

from __future__ import annotations

import msgspec

from domain.aa1942_convoy.commands import Options
from domain.aa1942_convoy.data import MapData
from domain.aa1942_convoy.editions import EDITIONS
from domain.aa1942_convoy.state import SIDE, STARTING_INCOME, TURN_ORDER, State, open_canals
from domain.engine import InvalidInput
from events.core import GameCreated

# AA-R16: the submarines of the standard 1942.2 setup (TripleA WW2v5_1942_2nd, unitInitialize: submarine
# placements), power -> sea zone -> count.
SETUPS: dict[str, dict[str, dict[int, int]]] = {
    "1942.2": {"USSR": {4: 1}, "Germany": {5: 2, 9: 2}, "UK": {39: 1}, "Japan": {44: 1}, "USA": {53: 1}},
    "empty": {},
}
NEW_GAME_SETUP = "1942.2"


def new_game_options(options: Options) -> Options:
    """AA-R16: a new game records its setup explicitly ("1942.2" unless it asks for "empty"), so the genesis says
    which submarines the game began with whatever a later version's default is."""
    if options.setup is msgspec.UNSET:
        return msgspec.structs.replace(options, setup=NEW_GAME_SETUP)
    return options


def check_setup(options: Options, seats: list[str], data: MapData) -> None:
    """AA-R12: seats are powers, or sides playing the powers that have no seat of their own."""
    allowed = set(TURN_ORDER) | set(SIDE.values())
    unknown = [s for s in seats if s not in allowed]
    uncovered = [p for p in TURN_ORDER if p not in seats and SIDE[p] not in seats]
    if unknown or uncovered:
        raise InvalidInput(
            "invalid-seats",
            f"aa1942-convoy seats are powers {list(TURN_ORDER)} or sides ['Axis', 'Allies'] covering every power"
            + (f"; unknown: {unknown}" if unknown else "")
            + (f"; no seat plays {uncovered}" if uncovered else ""),
        )
    for power, zones in options.submarines.items():
        for sz in zones:
            if sz not in data.sea_zones:
                raise InvalidInput("invalid-options", f"options.submarines.{power}: no sea zone {sz} on the map")


def power_seats(seats: list[str]) -> dict[str, str]:
    """AA-R12: a seat named after a power plays it; a seat named after a side plays that side's other powers."""
    return {p: (p if p in seats else SIDE[p]) for p in TURN_ORDER}


def starting_submarines(options: Options) -> dict[str, dict[int, int]]:
    """AA-R16: the setup's submarines, plus those of option `submarines`."""
    subs = {p: dict(SETUPS[new_game_options(options).setup].get(p, {})) for p in TURN_ORDER}
    for power, zones in options.submarines.items():
        for sz, n in zones.items():
            subs[power][int(sz)] = subs[power].get(int(sz), 0) + n
    return {p: dict(sorted(zones.items())) for p, zones in subs.items()}


def initial_state(created: GameCreated, options: Options, data: MapData) -> State:
    """AA-2: every territory held by its original owner, treasuries at the starting incomes; AA-R16 submarines."""
    state = State(
        map=data, seat_of=power_seats(created.seats), rounds=options.rounds, edition=EDITIONS.of(created.ruleset.version)
    )
    state.control = {t: land.original_owner for t, land in sorted(data.land_territories.items())}
    state.treasury = dict(STARTING_INCOME)
    state.subs = starting_submarines(options)
    state.canals_open = open_canals(state, TURN_ORDER[0])
    return state
