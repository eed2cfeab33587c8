"""The starter openapi/client-ts/examples/two-seat/ (issue 30): built by `vite build` as its README says, served from
an origin of its own that the API server allows by CORS, and played in Chromium by two browser contexts — one
creates the battle and joins by its invitation link, the other joins by the second link — by clicks only, every
decision drawn by the package's `decisionForm` from the entry's descriptor, for a few turns of Battlefleet.
Screenshots: tests/output/desk/starter-*.png."""

from __future__ import annotations

import functools
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

import httpx
import pytest

from tests.clients.tools import need, node_packages, run
from tests.desk_browser import OUTPUT, launch, playwright
from tests.live import server_process
from tests.test_client_ts import CLIENT

TURNS = 3  # play until both seats have seen this turn start


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The starter's dist/, built by its own `npm run build` (tsc --noEmit, then vite build)."""
    modules = node_packages()
    work = tmp_path_factory.mktemp("starter") / "client-ts"
    shutil.copytree(CLIENT, work, ignore=shutil.ignore_patterns("node_modules", "dist", "*.tgz"))
    starter = work / "examples" / "two-seat"
    (starter / "node_modules").symlink_to(modules)
    run([need("npm", "npm (it comes with Node.js)"), "run", "build"], cwd=starter)
    return starter / "dist"


@pytest.fixture(scope="module")
def origin(built):
    """A static server of the built starter on 127.0.0.1: the page's own origin."""

    class Quiet(SimpleHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(built)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def api(origin, tmp_path_factory):
    db = str(tmp_path_factory.mktemp("starter-db") / "starter.db")
    args = ("--cors-origin", origin)
    with server_process(db, serve=True, args=args, env={"UMPIRE_CREATE_PER_MINUTE": "0"}) as (base, _):
        yield base


def progressed(page, before: int) -> None:
    """Wait until the page shows the answer of the command just clicked: a version after `before`, or an error."""
    from playwright.sync_api import TimeoutError as Timeout

    try:
        page.wait_for_function(
            "v => Number(document.querySelector('#version')?.textContent) > v || !document.querySelector('#error').hidden",
            arg=before,
            timeout=20_000,
        )
    except Timeout:
        raise AssertionError(f"no answer at version {before}: {page.inner_html('#app')[:3000]}") from None
    assert page.locator("#error").is_hidden(), page.inner_text("#error")


def caught_up(api: str, pages) -> None:
    """Wait until every page shows the game's version now (its own stream brings it)."""
    game = parse_qs(urlparse(pages[0].url).fragment)["game"][0]
    now = httpx.get(f"{api}/games/{game}").json()["version"]
    for page in pages:
        page.wait_for_function("v => Number(document.querySelector('#version')?.textContent) >= v", arg=now, timeout=20_000)


def click_a_decision(page) -> str | None:
    """One decision by click: the form's Send where its descriptor draws one, else a listed choice, else the rules'
    default (never `concede`). Returns what it clicked (None when this seat has nothing to decide now)."""
    if page.locator("#over").count():
        return None
    section = page.locator("section.decision:not([data-type=concede])").first
    if not section.count() or page.locator("#decisions[inert]").count():
        return None
    assert section.locator(".nu-decision").count() == 1  # drawn by the package's decisionForm
    for selector in (".nu-send:enabled", ".nu-choice", ".nu-default"):
        button = section.locator(selector).first
        if button.count():
            before, kind = int(page.inner_text("#version")), section.get_attribute("data-type")
            button.click()
            progressed(page, before)
            return f"{kind} {selector}"
    raise AssertionError(f"a decision with nothing to click: {section.inner_html()[:2000]}")


def test_two_browsers_play_battlefleet_by_invitation_and_clicks(api, origin):
    with playwright() as p:
        browser = launch(p)
        try:
            errors: list[str] = []
            pages = []
            for _ in range(2):
                context = browser.new_context(viewport={"width": 1200, "height": 900})
                page = context.new_page()
                page.on("pageerror", lambda e: errors.append(str(e)))
                pages.append(page)
            host, guest = pages
            host.goto(f"{origin}/?api={api}")
            host.click("#create")
            host.wait_for_selector("a.invitation")
            links = {a.get_attribute("data-seat"): a.get_attribute("href") for a in host.locator("a.invitation").all()}
            assert set(links) == {"japan", "russia"}, links
            host.click('a.invitation[data-seat="japan"]')
            host.click("#join")
            guest.goto(links["russia"])  # the link the host sent
            guest.click("#join")
            for page, seat in ((host, "japan"), (guest, "russia")):
                page.wait_for_selector(f'#seat[data-seat="{seat}"]')
                assert "invitation" not in page.url  # spent: off the address bar

            idle = False
            clicked: set[str] = set()
            while min(int(page.inner_text("#turn")) for page in pages) < TURNS:
                acted = [c for c in (click_a_decision(page) for page in pages) if c]
                clicked.update(acted)
                if not acted:
                    assert not host.locator("#over").count(), "the battle ended before the turns were played"
                    assert not idle, "both seats show the game as it is, and neither has anything to decide"
                    caught_up(api, pages)
                idle = not acted
            # the table-drawing forms were filled and sent as drawn, not only defaults
            assert {"move .nu-send:enabled", "fire .nu-send:enabled"} <= clicked, clicked
            OUTPUT.mkdir(parents=True, exist_ok=True)
            for page, seat in ((host, "japan"), (guest, "russia")):
                page.screenshot(path=str(OUTPUT / f"starter-{seat}.png"), full_page=True)
                assert page.locator("#log li").count() > 20  # the seat's own stream drew the events as they came
            assert errors == []
        finally:
            browser.close()
