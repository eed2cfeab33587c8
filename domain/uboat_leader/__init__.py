"""`uboat-leader`: U-Boat Leader (the Spanish translation) — a solitaire U-boat flotilla campaign.

This module only routes: each command to its rule, each awaited decision to its commands. The engine runs every
automatic step and stops at the next decision (domain/procedure.py, sequence.py). Rule ids: docs/rules/uboat-leader.md;
every roll record cites the Spanish heading and the id, completion rules labelled as stand-ins.
"""

from __future__ import annotations

from typing import Any

from domain.dice import Dice
from domain.engine import IllegalCommand, InvalidInput, Ruleset, tag
from domain.procedure import Ctx, run
from domain.uboat_leader import bot, sequence, views
from domain.uboat_leader import commands as c
from domain.uboat_leader.awaiting import legal_commands
from domain.uboat_leader.data import DataSet, checks, parse_data
from domain.uboat_leader.editions import EDITIONS
from domain.uboat_leader.evolve import evolve
from domain.uboat_leader.legal import SEATS
from domain.uboat_leader.rules import (
    attack,
    bearing,
    contact,
    enemy,
    escorts,
    missions,
    operations,
    setup,
    strategic,
    tactical,
    wolfpack,
)
from domain.uboat_leader.state import State, initial_state
from events import uboat_leader as ev
from events.vocabulary import Event

# command -> (the decision it answers, the rule that judges it)
ROUTES: dict[type, tuple[str, Any]] = {
    c.SelectUBoats: ("select", lambda ctx, x: setup.select(ctx, x.picks)),
    c.EndStrategic: ("strategic", lambda ctx, x: strategic.end_strategic(ctx)),
    c.BuyOption: ("strategic", strategic.buy_option),
    c.BuyAdvancedTorpedoes: ("strategic", strategic.buy_advanced),
    c.AssignMission: ("strategic", strategic.assign_mission),
    c.EndCampaign: ("strategic", lambda ctx, x: strategic.end_campaign(ctx)),
    c.Stop: ("ops", lambda ctx, x: operations.stop(ctx, x.boat)),
    c.Move: ("ops", operations.move),
    c.Patrol: ("ops", lambda ctx, x: operations.patrol(ctx, x.boat)),
    c.EndOperations: ("ops", lambda ctx, x: operations.end_operations(ctx)),
    c.ContinueAttack: ("attack_box", lambda ctx, x: missions.continue_attack(ctx)),
    c.AbortAttack: ("attack_box", lambda ctx, x: missions.abort_attack(ctx)),
    c.FireTorpedoes: ("fire", missions.fire),
    c.RaiderRoll: ("raider", lambda ctx, x: missions.raider_roll(ctx, x.weapon)),
    c.RaiderStop: ("raider", lambda ctx, x: missions.finish(ctx, "done", "Raider mission over")),
    c.Activate: ("activate", contact.activate),
    c.RollContacts: ("contacts", lambda ctx, x: contact.roll_contacts(ctx)),
    c.Pass: ("contacts", lambda ctx, x: contact.pass_contacts(ctx)),
    c.ChooseConvoyCard: ("choose_card", contact.choose_card),
    c.Engage: ("engage", lambda ctx, x: contact.engage(ctx)),
    c.Withdraw: ("engage", lambda ctx, x: contact.withdraw(ctx)),
    c.Place: ("place", contact.place),
    c.StartCombat: ("wolfpack", lambda ctx, x: tactical.start(ctx)),
    c.CallWolfpack: ("wolfpack", wolfpack.call_wolfpack),
    c.RadioCall: ("wolfpack", wolfpack.radio_call),
    c.MoveUBoat: ("move", tactical.move_uboat),
    c.SilentRunningCmd: ("move", tactical.silent_running),
    c.DeepDive: ("move", tactical.deep_dive),
    c.Bearing: ("bearing", bearing.bearing),
    c.Drift: ("drift", bearing.drift_cmd),
    c.EscortOrder: ("escort_order", escorts.order),
    c.Pursue: ("pursue", escorts.pursue),
    c.Hold: ("attack", attack.hold),
    c.Attack: ("attack", attack.attack),
    c.ChooseTarget: ("target", enemy.choose_target),
    c.NextContact: ("next", lambda ctx, x: contact.next_contact(ctx)),
    c.EndActivation: ("next", lambda ctx, x: contact.end_activation(ctx, "activation ended")),
}


def decide(state: State, cmd: Any, seat: str, dice: Dice) -> list[Event]:
    decision, rule = ROUTES[type(cmd)]
    now = sequence.awaited(state)
    if decision != now:
        legal = [s.type for s in legal_commands(state)]
        raise IllegalCommand(f"the game awaits one of {legal}, not {tag(type(cmd))!r} (UL-43)")
    ctx = Ctx(state, dice, evolve)
    rule(ctx, cmd)
    return run(ctx, sequence.awaited, sequence.advance)


def default_seats(options: c.Options) -> list[str]:
    return list(SEATS)  # the seat every entry awaits by name (from 9.0.0 a game's only one: UL-E9-1)


def check_setup(options: c.Options, seats: list[str], data: DataSet) -> None:
    if len(seats) != 1:
        raise InvalidInput("invalid-seats", "uboat-leader is solitaire: one seat, 'commander'")
    dated = (checks.check_tactics_dates, checks.check_event_year)
    wrong = [why for camp in data.campaigns for check in dated if (why := check(camp))]
    if wrong:  # at creation only: a recorded game is never re-judged by a newer check
        raise InvalidInput("invalid-data", "; ".join(wrong))
    camp = next((x for x in data.campaigns if x.id == options.campaign), None)
    if camp is None:
        raise InvalidInput(
            "invalid-options",
            f"no campaign {options.campaign!r} in the data set; it has {[x.id for x in data.campaigns]}",
        )
    if options.duration not in camp.durations:
        raise InvalidInput(
            "invalid-options", f"{camp.name} has the durations {sorted(camp.durations)}, not {options.duration!r}"
        )


RULESET = Ruleset(
    id="uboat-leader",
    editions=EDITIONS,
    title="U-Boat Leader — a solitaire U-boat flotilla campaign (Spanish translation; stand-in data)",
    options_type=c.Options,
    command_types=c.COMMANDS,
    default_seats=default_seats,
    check_setup=check_setup,
    parse_data=parse_data,
    data_file="data/default.json",
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    legal_commands=legal_commands,
    views=views.VIEWS,
    digest=views.digest,
    event_types=ev.EVENTS,
    data_option="data",
    bot=bot.choose,
    outcomes=bot.outcomes,
    categories=bot.categories,
    sequence_rule="UL-43",
    named_seats="UL-E9-1",
)
