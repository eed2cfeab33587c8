"""A corvette-command convoy played through a Python client generated from openapi/openapi.json by
openapi-python-client, like README's curl loop: create a game, send the first choice `awaiting` offers until nothing
is awaited, read the ship log typed by its `kind`, reveal the server seed, download the bundle and have the server
verify it; every read goes through a plain `Client`, without a token. tests/test_clients.py generates the package `umpire_client` and runs `python play.py <base URL>` with it on
the path. The last line printed is a JSON summary the test checks against the server."""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any

from umpire_client import AuthenticatedClient, Client, models
from umpire_client.api.commands import reveal, send_command
from umpire_client.api.games import create_game, get_game
from umpire_client.api.record import get_bundle, get_view
from umpire_client.api.verification import verify_bundle

MAX_COMMANDS = 5000


def ok(answer: Any, step: str) -> Any:
    """The parsed body of a 2xx answer, or exit naming the step, the status and the problem the server sent."""
    if answer.status_code // 100 != 2 or answer.parsed is None or isinstance(answer.parsed, models.Problem):
        raise SystemExit(f"{step}: {answer.status_code} {answer.content.decode(errors='replace')}")
    return answer.parsed


def first_choice(spec: Any) -> Any:
    """The command a UI sends when the player picks the first choice: `{type, ...choice}` (README's jq filter), as
    the generated command class that goes with the generated spec class (`…Spec` -> `…Command`)."""
    command_class = getattr(models, type(spec).__name__.removesuffix("Spec") + "Command")
    choice = spec.choices[0].to_dict() if spec.choices else {}
    return command_class.from_dict({"type": spec.type_.value, **choice})


def main(base_url: str) -> None:
    public = Client(base_url=base_url, raise_on_unexpected_status=True)
    body = models.CreateGameCorvetteCommand(
        ruleset=models.CreateGameCorvetteCommandRuleset.CORVETTE_COMMAND,
        options=models.CorvetteCommandOptions(convoys=1),
    )
    created: models.GameCreatedOut = ok(create_game.sync_detailed(client=public, body=body), "POST /games")
    game_id = created.game_id
    captain_token = next(s.token for s in created.seats if s.seat == "captain")
    captain = AuthenticatedClient(base_url=base_url, token=captain_token, raise_on_unexpected_status=True)
    referee = AuthenticatedClient(base_url=base_url, token=created.referee_token, raise_on_unexpected_status=True)

    awaiting = ok(get_game.sync_detailed(game_id, client=public), "GET /games/{id}").awaiting
    types: Counter[str] = Counter()
    commands = 0
    last = None
    while awaiting:
        commands += 1
        if commands > MAX_COMMANDS:
            raise SystemExit(f"the convoy did not end within {MAX_COMMANDS} commands")
        command = first_choice(awaiting[0])
        last = ok(send_command.sync_detailed(game_id, client=captain, body=command), f"command {command.type_}")
        types.update(e.type_.value for e in last.events)
        awaiting = last.awaiting  # the answer carries what is legal now: no extra read
    # events are typed by `type`: the GameEnded event is its own class with its own data
    ended = [e for e in (last.events if last else []) if isinstance(e, models.GameEndedEvent)]
    if not ended:
        raise SystemExit("the last command did not end the game")

    summary: models.GameSummary = ok(get_game.sync_detailed(game_id, client=public), "GET /games/{id}")
    if summary.status.value != "over":
        raise SystemExit(f"expected the game over, it is {summary.status.value}")

    view = ok(get_view.sync_detailed(game_id, "ship-log", client=public), "GET ship-log")
    if not isinstance(view, models.CorvetteCommandShipLogView):  # views are typed by `kind`
        raise SystemExit(f"expected the ship log, got {type(view).__name__}")
    ship_log: models.ShipLog = view.data  # the corvette sheet's own fields

    ok(reveal.sync_detailed(game_id, client=referee), "reveal")
    bundle: models.Bundle = ok(get_bundle.sync_detailed(game_id, client=public), "GET bundle")
    upload = models.BundleUpload.from_dict(bundle.to_dict())  # what /bundles/verify takes: open bodies
    report: models.VerifyReport = ok(verify_bundle.sync_detailed(client=public, body=upload), "POST /bundles/verify")

    print(
        json.dumps(
            {
                "client": "python",
                "game_id": game_id,
                "commands": commands,
                "version": summary.version,
                "ended": ended[0].data.to_dict(),
                "ship_log": {
                    "kind": view.kind.value,
                    "at": view.at,
                    "over": ship_log.now.over,
                    "convoys_done": ship_log.now.convoys_done,
                    "hull_damage": [[e.seat, e.hull_damage] for e in ship_log.escorts],
                },
                "bundle_events": len(bundle.events),
                "head": bundle.head,
                "verdict": report.verdict.value,
                "event_types": dict(sorted(types.items())),
            }
        )
    )


if __name__ == "__main__":
    if len(sys.argv) != 2:
        raise SystemExit("usage: python play.py <base URL of a running server>")
    main(sys.argv[1])
