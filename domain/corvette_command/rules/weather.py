"""Weather: the forecast (CC-10) and the change per box entered (CC-12)."""

from __future__ import annotations

from msgspec.structs import replace

from domain.corvette_command.rules.resolution import plain
from domain.corvette_command.state import WEATHER, ymd
from domain.procedure import Ctx
from events import corvette_command as ev
from events.core import RollModifier, RollResult


def forecast_weather(total: int) -> str:
    """CC-10: 1-5 Good, 6-10 Poor, 11-15 Fog/Snow, 16-20 Violent Storm (totals clamped to 1..20)."""
    total = min(max(total, 1), 20)
    return WEATHER[(total - 1) // 5]


def month_modifier(month: int) -> int:
    """CC-10: +1 October to March, -1 June to August."""
    return 1 if month >= 10 or month <= 3 else -1 if 6 <= month <= 8 else 0


def forecast(ctx: Ctx) -> None:
    month = ymd(ctx.state.date)[1]
    mod = month_modifier(month)
    roll = ctx.dice.roll([20], "weather-forecast", "CC:Game Setup/Weather Forecast (CC-10)")
    weather = forecast_weather(roll.faces[0] + mod)
    ctx.emit(
        replace(
            roll,
            result=RollResult(
                outcome=weather,
                total=roll.faces[0] + mod,
                modifiers=[RollModifier(reason=f"month {month}", value=mod, side="roll")] if mod else [],
            ),
        )
    )
    ctx.emit(ev.WeatherSet(weather=weather, cause="forecast"))


def shifted(weather: str, steps: int) -> str:
    """Positive improves (storm -> fog -> poor -> good), negative worsens; one step at most per roll."""
    i = WEATHER.index(weather) - (1 if steps > 0 else -1 if steps < 0 else 0)
    return WEATHER[min(max(i, 0), len(WEATHER) - 1)]


def change(ctx: Ctx) -> None:
    """CC-12: black d6 minus white d6: positive improves one step, negative worsens one, zero no change."""
    roll = plain(ctx.dice, [6, 6], "weather-change", "CC:Turn Sequence/Weather (CC-12)")
    diff = roll.faces[0] - roll.faces[1]
    new = shifted(ctx.state.convoy.weather, diff)
    ctx.emit(replace(roll, result=RollResult(outcome=f"black - white = {diff}: {new}", total=diff)))
    ctx.emit(ev.WeatherSet(weather=new, cause="change"))
