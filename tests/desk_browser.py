"""The referee's desk in a real browser: Debian's Chromium driven by Playwright, against a real server process.

Never `playwright install`: the browser is the system's (`apt-get install chromium`). Where none is found the
browser tests skip and say how to enable them, except in CI (CI=true), where they fail instead.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = Path(__file__).resolve().parent / "output" / "desk"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# the golden games a server is loaded with, so the desk can draw their views (replays/generate.py plays them), and a
# Battlefleet battle still being fought under fog (its seed fixed, so the same battle every run), whose tokens the
# tests hold
SERVER_GAMES = ("north-atlantic", "corvette-eastbound", "battlefleet-torpedo-attack", "uboat-short", "bf-live")


def chromium_path() -> str:
    """Debian's Chromium, or skip (fail in CI) with how to get it."""
    path = "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else shutil.which("chromium")
    if path:
        return path
    message = "the desk's browser tests need Debian's Chromium at /usr/bin/chromium: run `apt-get install chromium`"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{message} (CI must run them: .ci/run installs it)")
    pytest.skip(message)


def generator():
    """replays/generate.py as a module (it is a script, not a package): its games, and `newest(name)`, the bundle of
    the newest edition that the games it plays are compared with."""
    spec = importlib.util.spec_from_file_location("replays_generate", ROOT / "replays" / "generate.py")
    gen = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = gen  # its dataclass resolves its annotations through the module
    spec.loader.exec_module(gen)
    return gen


def newest(name: str) -> Path:
    """The golden bundle `name` of its ruleset's newest edition: the game a server loaded by `load_golden_games`
    holds (an older edition's bundle is another game, with other hashes)."""
    return generator().newest(name)


def load_golden_games(db_path: str) -> dict[str, str]:
    """Play the games of replays/ whose views the desk draws into a database, as `make replays` plays them, and
    half a Battlefleet battle under fog (`bf-live`: the bots play its first turns). Returns bf-live's tokens by seat
    and `referee`. On a thread of its own: where a test module's Playwright runs its event loop on this thread, the
    service would take its writes for a route's and refuse to wait for the lock (WouldBlock)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(_load_golden_games, db_path).result()


def _load_golden_games(db_path: str) -> dict[str, str]:
    from events.store import open_store
    from service.games import GameService
    from tests.conftest import seated
    from tests.drivers import bot_commands

    gen = generator()
    svc = GameService(open_store(db_path))
    for name in ("aa1942-north-atlantic", "corvette-eastbound", "battlefleet-torpedo-attack", "uboat-short"):
        gen.play(svc, name)
    fog = {"scenario": "yellow-sea-1904"}  # fog blur, the default
    made = seated(svc.creation.create("battlefleet-1900", fog, None, "public-seed", "b5" * 32, None, None, "bf-live"))
    tokens = made["tokens"]
    bot_commands(svc, "bf-live", tokens, 41)  # into turn 4: japan has sent its damage control, russia owes it
    return {**tokens, "referee": made["referee_token"]}


@contextmanager
def playwright():
    """Playwright's driver (one per test module: its sync API allows no second one while it runs)."""
    from playwright.sync_api import sync_playwright

    chromium_path()  # skip (or fail in CI) before starting anything
    with sync_playwright() as p:
        yield p


def launch(p, *extra_args: str):
    """Debian's Chromium, headless, with nothing that reaches outside this machine."""
    return p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS + list(extra_args))


class Desk:
    """One browser tab on the desk, failing the test on any uncaught JavaScript error."""

    def __init__(self, browser, base: str):
        self.base = base
        self.context = browser.new_context(viewport={"width": 1280, "height": 900})
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def open(self, route: str = "#/") -> None:
        self.page.goto(f"{self.base}/desk/{route}")

    def open_file(self, path: Path) -> None:
        self.open()
        self.page.set_input_files("#bundle-file", str(path))
        self.page.wait_for_selector("#verdict")

    def js(self, body: str, arg=None):
        """Run `body` (an async function of `arg` with the desk's modules as `m`) in the page."""
        script = f"""async (arg) => {{
            const m = {{}};
            for (const name of ["json", "crypto", "umpire1", "verify", "selftest"]) {{
                Object.assign(m, await import(`/desk/js/${{name}}.js`));
            }}
            const pictures = await import("/desk/js/pictures/index.js");
            {body}
        }}"""
        return self.page.evaluate(script, arg)

    def check(self, name: str) -> dict:
        row = self.page.locator(f"#check-{name}")
        return {
            "status": row.get_attribute("data-status"),
            "first_bad_seq": _int(row.get_attribute("data-first-bad-seq")),
            "first_bad_k": _int(row.get_attribute("data-first-bad-k")),
        }

    def version(self) -> int:
        """The game's version the Play tab shows."""
        return int(self.page.inner_text("#play-version"))

    def send(self, button, timeout: float = 30_000) -> None:
        """Click a decision's send (a Playwright locator) and wait until the game has moved on; fail on a refusal."""
        before = self.version()
        button.click()
        self.page.wait_for_function(
            "v => Number(document.querySelector('#play-version').textContent) > v"
            " || document.querySelector('#play-send-error')",
            arg=before,
            timeout=timeout,
        )
        assert not self.page.locator("#play-send-error").count(), self.page.inner_text("#play-send-error")

    def screenshot(self, name: str, full_page: bool = True) -> Path:
        OUTPUT.mkdir(parents=True, exist_ok=True)
        path = OUTPUT / f"{name}.png"
        self.page.screenshot(path=str(path), full_page=full_page)
        return path

    def close(self) -> None:
        self.context.close()
        assert not self.errors, f"JavaScript errors on the desk: {self.errors}"


def _int(text: str | None) -> int | None:
    return int(text) if text not in (None, "") else None


# In the page: what the desk concludes about a bundle's text, in the shape of `umpire verify`'s checks.
VERIFY_TEXTS = """
    const out = [];
    const plain = (v) => (v instanceof m.PyFloat ? v.value : typeof v === "bigint" ? Number(v) : v ?? null);
    for (const text of arg) {
        let b;
        try { b = m.parse(text); } catch (e) { out.push({ format: e.message }); continue; }
        const err = m.bundleError(b);
        if (err) { out.push({ format: err }); continue; }
        const r = await m.verifyAll(b, () => null);
        const pick = (c) => ({ status: c.status, first_bad_seq: plain(c.first_bad_seq), first_bad_k: plain(c.first_bad_k) });
        const checks = { chain: pick(r.chain), dice: pick(r.dice), sealed: pick(r.sealed) };
        out.push(r.parent ? { parent: pick(r.parent), ...checks } : checks);
    }
    return out;
"""


def python_checks(raw: bytes, report: dict | None = None) -> dict:
    """`umpire verify`'s report (made here unless given), cut to what the desk checks: a fork's parent, chain, dice,
    sealed inputs."""
    from service.replay import verify

    checks = (report or verify(raw))["checks"]
    if "format" in checks:
        return {"format": True}

    def pick(c):
        return {"status": c["status"], "first_bad_seq": c.get("first_bad_seq"), "first_bad_k": c.get("first_bad_k")}

    return {name: pick(checks[name]) for name in ("parent", "chain", "dice", "sealed") if name in checks}


def desk_checks(desk: Desk, texts: list[str]) -> list[dict]:
    out = []
    for i in range(0, len(texts), 40):
        for r in desk.js(VERIFY_TEXTS, texts[i : i + 40]):
            out.append({"format": True} if "format" in r else r)
    return out


def dumps(bundle: dict) -> bytes:
    return json.dumps(bundle, ensure_ascii=False).encode("utf-8")


def sealed_bid_bundles() -> dict[str, dict]:
    """Bundles of the test-only sealed-bid ruleset (tests/sealed_bid.py): bids sealed, then opened at the end
    (public-seed, so the salts can be checked); and a fair game with one bid still sealed."""
    import tempfile

    from events.store import open_store
    from service.games import GameService
    from tests.conftest import seated
    from tests.drivers import SHORT
    from tests.sealed_bid import served_with_sealed_bid

    with tempfile.TemporaryDirectory() as tmp:
        svc = GameService(open_store(str(Path(tmp) / "sealed.db")), rulesets=served_with_sealed_bid())
        out = {}
        for name, mode, bids in (("sealed-opened", "public-seed", [3, 5, 7, 7]), ("sealed-open", "fair", [4])):
            dice = {"server_seed": "ab" * 32} if mode == "public-seed" else {}
            made = svc.creation.create(
                "sealed-bid", SHORT["sealed-bid"], None, mode, dice.get("server_seed"), None, None, game_id=name
            )
            tokens = seated(made)["tokens"]
            for i, amount in enumerate(bids):
                svc.command(name, tokens[("north", "south")[i % 2]], {"type": "bid", "amount": amount})
            out[name] = svc.bundles.bundle(name)
        return out


def fork_bundles() -> dict[str, dict]:
    """Fork bundles the server makes: north-atlantic (revealed) forked at a command's end and played on by the bot,
    then revealed, so both parts hold rolls; a fork of that fork (its parent is itself a fork); and a fork of a game
    whose seed is still secret (its parent part can be checked only up to the dice)."""
    import tempfile

    from events.store import open_store
    from service.games import GameService
    from tests.conftest import seated
    from tests.drivers import bot_commands

    gen = generator()
    with tempfile.TemporaryDirectory() as tmp:
        svc = GameService(open_store(str(Path(tmp) / "forks.db")))
        parent = gen.play(svc, "aa1942-north-atlantic")
        at = parent["commands"][len(parent["commands"]) // 3]["seqs"][1]
        out = {}

        def fork(of: str, at: int, name: str, seed: str, commands: int, reveal: bool = True) -> dict:
            made = svc.creation.fork(of, at, "public-seed", seed * 32, fork_id=name)
            bot_commands(svc, name, seated(made)["tokens"], commands)
            if reveal:
                svc.reveal(name, made["referee_token"])
            return svc.bundles.bundle(name)

        out["fork"] = fork("north-atlantic", at, "na-fork", "f1", 40)
        out["fork-of-fork"] = fork("na-fork", out["fork"]["commands"][-2]["seqs"][1], "na-fork-2", "f2", 30)
        secret = svc.creation.create("aa1942-convoy", {"rounds": 2}, None, "fair", None, None, None, game_id="secret")
        bot_commands(svc, "secret", seated(secret)["tokens"], 40)
        end = svc.bundles.bundle("secret")["commands"][-1]["seqs"][1]
        out["fork-of-secret"] = fork("secret", end, "secret-fork", "f3", 30)
        return out
