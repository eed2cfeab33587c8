"""Verification of uploaded bundles: POST /bundles/verify, in worker processes (service/verifier.py)."""

from __future__ import annotations

from collections.abc import Callable

from fastapi import Request

from service.games import GameService
from service.http import JSON, client_of
from service.settings import Settings
from service.verifier import Verifier


def add_routes(route: Callable, svc: GameService, settings: Settings) -> Verifier:
    """Registered with create_app's `route`; returns the verifier it made (create_app keeps it as app.state.verifier)."""

    verifier = Verifier(settings, svc.store.path, svc.bundles.server_inputs_if_stored, svc.rulesets)

    @route(
        "POST",
        "/bundles/verify",
        ok="VerifyReport",
        body="BundleUpload",
        errors=(413, 415, 422, 429),
        summary="Verify a bundle: chain, dice, sealed records, replay",
        description=f"At most {settings.max_bundle_body} bytes, {settings.max_bundle_events} events, "
        f"{settings.max_bundle_commands} commands and {settings.max_dice_per_roll} dice per roll, verified in a worker "
        f"process within {settings.verify_cpu_seconds} CPU seconds and {settings.verify_memory_mb} MiB (413 "
        f"`bundle-too-large` names the cap); one bundle at a time per client, {settings.verify_concurrency} at a "
        "time in all, the others waiting their turn a while (429 otherwise).",
    )
    async def verify_bundle(request: Request):
        raw = await request.body()
        client = client_of(request)
        return JSON(await verifier.verify(raw, client))

    return verifier
