"""`umpire import`: a verified bundle's game written into a store as it was recorded, every body and hash the same
(docs/bundles.md "Importing a bundle"), so that a developer handed one file reads it at any seq, forks it and plays on
from any position with the server's own tools, on a server of their own.

Only a bundle that verifies whole (`verified`: its seed revealed, its replay byte-identical on this engine) is taken:
the seed is what the game's rolls and seals were made with, and the replay proves the rules here make the same log.
The game is over (a revealed game is), so it takes no command; a fork of it plays on with its own seats and dice.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from domain.engine import REFEREE
from events.bodies import sealed_beside
from events.bundle import decode_bundle
from events.canonical import canonical
from events.core import DiceRolled
from events.store import EventStore, StoreConflict
from events.store.rows import CommandRow, GameRow, NewEventRow
from service.credentials import new_token, token_hash
from service.replay import logged_seed, opened_records, verify, with_opened
from service.rulesets import RULESETS, Loaded


class ImportRefused(Exception):
    """Why a bundle is not imported (the CLI's, never an HTTP answer): `detail` says it in words."""

    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail


class Importable(NamedTuple):
    """A verified bundle's game as the store's rows, not written yet (`importable`), and what its import answers."""

    game: GameRow
    rows: list[NewEventRow]
    commands: list[CommandRow]
    made: dict[str, Any]


def import_bundle(
    store: EventStore, raw: bytes, stamp: str, rulesets: dict[str, Loaded] = RULESETS
) -> dict[str, Any]:
    """Write the bundle's game into `store` (`stamp`: the time recorded for its rows, which the bundle does not carry);
    its id, ruleset and the referee token made for it (the game's own tokens are not in a bundle)."""
    return write(store, importable(raw, stamp, rulesets))


def write(store: EventStore, it: Importable) -> dict[str, Any]:
    """One transaction: the whole game or nothing."""
    first, *rest = it.commands
    try:
        store.create_game(it.game, it.rows, first, later=rest)
    except StoreConflict as e:
        raise ImportRefused(f"this store has a game {it.game.id} already: import into another database") from e
    return it.made


def importable(raw: bytes, stamp: str, rulesets: dict[str, Loaded] = RULESETS) -> Importable:
    """The bundle verified and made into rows, touching no store (ImportRefused: why not), so a refused import
    leaves no database behind (`umpire import` opens its store only for `write`)."""
    report = verify(raw, rulesets=rulesets)
    if report["verdict"] != "verified":
        checks = report["checks"].items()
        failed = "; ".join(f"{k} {c['status']}: {c['detail']}" for k, c in checks if c["status"] != "pass")
        raise ImportRefused(
            f"only a bundle that verifies whole is imported (its seed revealed and its replay byte-identical on this "
            f"engine); this one is {report['verdict']}: {failed}",
        )
    b = decode_bundle(raw)
    if b.parent is not None:
        raise ImportRefused("a fork's bundle carries its parent's part: import the parent's bundle and fork it here")
    seed, _ = logged_seed(b)
    opened = opened_records(b)  # the sealed records' content, kept beside their bodies as the write path keeps it
    rows = []
    for cmd in b.commands:  # the verified chain check holds each command to the seqs its events make
        for e in b.events[cmd.seqs[0] - 1 : cmd.seqs[1]]:
            event = with_opened(e.body, opened)
            roll_k = event.k if isinstance(event, DiceRolled) else None
            rows.append(
                NewEventRow(
                    b.game, e.body["seq"], e.body["type"], e.body["v"], canonical(e.body).decode(), e.hash,
                    cmd.command_id, cmd.seat, stamp, sealed_beside(event), roll_k,
                )  # fmt: skip
            )
    commands = [
        CommandRow(b.game, c.command_id, c.seat, canonical(c.payload).decode(), c.seqs[0], c.seqs[1], stamp)
        for c in b.commands
    ]
    referee = new_token()
    game = GameRow(
        id=b.game,
        ruleset=b.ruleset.id,
        ruleset_version=b.ruleset.version,
        data_sha256=b.ruleset.data_sha256,
        mode=b.dice.mode,
        server_seed=str(seed),
        server_commit=b.dice.server_commit,
        tokens={REFEREE: token_hash(referee)},
        created_at=stamp,
        bots=list(b.commands[0].payload.get("bots") or []),  # the seats the server played, as the creation said
    )
    made = {"game_id": b.game, "ruleset": b.ruleset.id, "version": len(rows), "referee_token": referee}
    return Importable(game, rows, commands, made)
