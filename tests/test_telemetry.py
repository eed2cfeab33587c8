"""FastAPI's own OpenTelemetry (docs/operations.md "OpenTelemetry"): off unless OpenTelemetry is set up for the process
when the app is made (FastAPI's check of that on every request costs 2% of a command), on or off by UMPIRE_TELEMETRY."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from service.app import create_app, telemetry_wanted
from service.settings import Settings

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith(("OTEL_", "FASTAPI_OTEL_")):
            monkeypatch.delenv(name)


def test_telemetry_is_off_without_opentelemetry_set_up_and_on_or_off_as_asked(monkeypatch, tmp_path) -> None:
    _clean_env(monkeypatch)
    assert telemetry_wanted(Settings()) is False
    assert telemetry_wanted(Settings(telemetry="on")) is True
    from opentelemetry import trace

    asked = []
    real = trace.get_tracer_provider
    monkeypatch.setattr(trace, "get_tracer_provider", lambda: asked.append(1) or real())
    app = create_app(settings=Settings(db=str(tmp_path / "t.db")))  # auto: asks once, here
    asked.clear()
    # FastAPI's own answer to "does telemetry run?" (asked on every request): no, without asking the providers
    assert app._native_telemetry.enabled() is False and not asked
    on = create_app(settings=Settings(db=str(tmp_path / "t.db"), telemetry="on"))
    assert on._native_telemetry.enabled() is False and asked  # on: asked (no provider is set up in this process)
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318")
    assert telemetry_wanted(Settings()) is True
    assert telemetry_wanted(Settings(telemetry="off")) is False
    monkeypatch.delenv("OTEL_EXPORTER_OTLP_ENDPOINT")
    monkeypatch.setenv("FASTAPI_OTEL_AUTO_CONFIGURE", "true")
    assert telemetry_wanted(Settings()) is True


def test_a_tracer_provider_set_before_the_app_is_made_turns_telemetry_on(tmp_path) -> None:
    """As `opentelemetry-instrument` does: the provider is set, then the app imported and made (a process of its own:
    a global provider is set once per process)."""
    code = textwrap.dedent(
        f"""
        from opentelemetry import trace
        trace.set_tracer_provider(trace.NoOpTracerProvider())
        from service.app import create_app
        from service.settings import Settings
        app = create_app(settings=Settings(db={str(tmp_path / "t.db")!r}))
        print(app._native_telemetry.enabled())
        """
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OTEL_", "FASTAPI_OTEL_"))}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "True"
