"""The server's settings as an operator types them (docs/api.md "Settings"): a value the server cannot use stops it at
start, saying which setting and what it takes; none is accepted silently (an operator's trial: a negative create
limit and a webhook allow-list with a typo started without a word, and a wrong choice read "… is one of …")."""

from __future__ import annotations

import pytest

from service.settings import Settings
from service.webhooks import Allow


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("UMPIRE_SQLITE_SYNC", "fulll", "UMPIRE_SQLITE_SYNC='fulll' must be one of: normal, full"),
        ("UMPIRE_LOG_FORMAT", "xml", "UMPIRE_LOG_FORMAT='xml' must be one of: text, json"),
        ("UMPIRE_CREATE_PER_MINUTE", "-1", "UMPIRE_CREATE_PER_MINUTE=-1 must be 0 or more"),
        ("UMPIRE_CACHE_GAMES", "-5", "UMPIRE_CACHE_GAMES=-5 must be 0 or more"),
        ("UMPIRE_VERIFY_CONCURRENCY", "0", "UMPIRE_VERIFY_CONCURRENCY=0 must be 1 or more"),
        ("UMPIRE_WEBHOOK_CONCURRENCY", "0", "UMPIRE_WEBHOOK_CONCURRENCY=0 must be 1 or more"),
        ("UMPIRE_MAX_CONNECTIONS", "-1", "UMPIRE_MAX_CONNECTIONS=-1 must be 0 or more"),
        ("UMPIRE_MAX_BODY", "many", "UMPIRE_MAX_BODY='many' is not an integer"),
        (
            "UMPIRE_WEBHOOK_ALLOW",
            "127.0.0.1, not a host/99",
            "UMPIRE_WEBHOOK_ALLOW: 'not a host/99' is neither a host name, an address nor a CIDR range; give "
            "comma-separated host names, addresses or CIDR ranges",
        ),
        ("UMPIRE_WEBHOOK_ALLOW", "10.0.0.0/33", "'10.0.0.0/33' is neither a host name, an address nor a CIDR range"),
        ("UMPIRE_WEBHOOK_ALLOW", "10.0.0.256", "'10.0.0.256' is neither a host name, an address nor a CIDR range"),
        ("UMPIRE_WEBHOOK_ALLOW", "10.1.2", "'10.1.2' is neither a host name, an address nor a CIDR range"),
        ("UMPIRE_OUTBOX_KEEP_DAYS", "-1", "=-1 must be 0 or more: a number of days (0: kept for ever)"),
    ],
)
def test_a_setting_the_server_cannot_use_stops_it_saying_what_it_takes(monkeypatch, name, value, said):
    monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as stopped:
        Settings.from_env()
    assert said in str(stopped.value)


@pytest.mark.parametrize(
    ("name", "value", "field", "read"),
    [
        ("UMPIRE_CREATE_PER_MINUTE", "0", "create_per_minute", 0),  # 0: no limit
        ("UMPIRE_SQLITE_SYNC", "FULL", "sqlite_sync", "full"),
        ("UMPIRE_WEBHOOK_ALLOW", "hooks.my.example, 10.0.0.0/8, ::1, localhost", "webhook_allow",
         "hooks.my.example, 10.0.0.0/8, ::1, localhost"),  # fmt: skip
        ("UMPIRE_DB_START_WAIT", "-1", "db_start_wait", -1.0),  # negative: wait for ever
        ("UMPIRE_MAX_CONNECTIONS", "0", "max_connections", 0),  # 0: no cap (service.server)
        ("UMPIRE_VERIFY_MEMORY_MB", "0", "verify_memory_mb", 0),  # 0: no limit (service.verifier)
        ("UMPIRE_WEBHOOK_ALLOW", "hook_receiver, bücher.example, hooks.my.example.", "webhook_allow",
         "hook_receiver, bücher.example, hooks.my.example."),  # a Compose service's name, any script, a final dot
    ],
)
def test_the_values_each_setting_takes_are_read_as_given(monkeypatch, name, value, field, read):
    monkeypatch.setenv(name, value)
    assert getattr(Settings.from_env(), field) == read


def test_an_allowed_host_matches_with_or_without_its_final_dot():
    allow = Allow("hooks.my.example., Hook_Receiver")
    assert allow.host("hooks.my.example") and allow.host("HOOKS.my.example.") and allow.host("hook_receiver")
    assert not allow.host("my.example")

