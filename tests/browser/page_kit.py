"""What every table-page browser test shares: the service's API from Python, phones (browser
contexts) that may not leave the machine, the console watch, and the axe-core + screenshot check.
"""

import json
import os
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Page, expect
BASE = os.environ.get("BASE_URL", "http://127.0.0.1:8080").rstrip("/")
# Debian's chromium-headless-shell: the same Chromium build as the `chromium` package, in the
# headless mode Playwright itself uses for headless runs, without the full browser's compositing
# of frames nobody sees (the table page's walks took half the CPU: docs/testing.md).
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium-headless-shell")
ROOT = Path(__file__).resolve().parents[2]
AXE = Path(__file__).resolve().parent / "node_modules" / "axe-core" / "axe.min.js"
SHOTS = ROOT / "target" / "browser"
# Every screen is photographed for a person to look at, except in CI, whose clone is thrown away:
# there only a screen that fails its check is (two full-page pictures per screen were a seventh
# of the walks' time).
EVERY_SHOT = os.environ.get("CI") != "true"
# Served to the page by the test itself (never reaching the service), from the page's own origin,
# so the page's Content-Security-Policy stays in force while axe runs.
AXE_URL = f"{BASE}/__browser-test__/axe.min.js"
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}
LAUNCH_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LUAU_SAMPLE = "blue red purple blue cut:yellow hook kukui blue rainbow"
# Seconds to wait for anything that should happen soon: enough for a machine running all of CI at
# once. A walk that passes never waits this long; only a failure takes longer to report.
PATIENCE = 30.0
expect.set_options(timeout=PATIENCE * 1000)

blocked: list[str] = []
page_errors: list[str] = []


def api(method: str, path: str, body=None, token=None, household=None):
    """The service's JSON API, straight from Python (for seeding and driving matches); with
    `household`, a household key, in that household's space (docs/households.md)."""
    request = urllib.request.Request(BASE + path, method=method)
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        request.add_header("content-type", "application/json")
    if token:
        request.add_header("authorization", f"Bearer {token}")
    if household:
        request.add_header("household-key", household)
    try:
        with urllib.request.urlopen(request, data) as response:
            return json.load(response)
    except urllib.error.HTTPError as error:
        raise AssertionError(f"{method} {path}: {error.code} {error.read().decode()}") from error


def guard(context) -> None:
    """Blocks (and records) every request that would leave the machine; serves axe-core."""

    def handle(route):
        url = route.request.url
        if url == AXE_URL:
            route.fulfill(path=str(AXE), content_type="text/javascript")
        elif urlsplit(url).hostname in LOCAL_HOSTS or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            blocked.append(url)
            route.abort()

    context.route("**/*", handle)


def watch_console(page: Page, label: str) -> None:
    def on_console(message):
        text = message.text
        # Chromium logs every 4xx the API answers (a refused entry is a 422, a stream URL the
        # service does not have yet a 404 before the page falls back to polling): expected.
        if message.type == "error" and not text.startswith("Failed to load resource: the server responded with a status of 4"):
            page_errors.append(f"{label}: console: {text}")
        if "Content Security Policy" in text:
            page_errors.append(f"{label}: CSP: {text}")

    page.on("console", on_console)
    page.on("pageerror", lambda error: page_errors.append(f"{label}: {error}"))


def check(page: Page, name: str) -> None:
    """axe-core on the screen as it is (no violation allowed), and its width in a phone's window
    and a desktop's (nothing wider than the window), each photographed (see `EVERY_SHOT`)."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(url=AXE_URL)
    result = page.evaluate(
        """async () => {
            const result = await axe.run(document, {resultTypes: ['violations']});
            return result.violations.map((v) => ({
                id: v.id, impact: v.impact, help: v.help,
                nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ': ' + n.failureSummary),
            }));
        }"""
    )
    for width, height in ((390, 844), (1280, 900)):
        page.set_viewport_size({"width": width, "height": height})
        overflow = page_width(page)
        if EVERY_SHOT or result or overflow > width:
            page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
        assert not result, f"axe-core violations on {name} (screenshots in {SHOTS}):\n" + json.dumps(result, indent=2)
        assert overflow <= width, f"{name} is {overflow} px wide in a {width} px window"
    page.set_viewport_size({"width": 390, "height": 844})



def new_phone(browser, label: str, width: int = 390, height: int = 844) -> Page:
    """A new phone: its own context (own storage), guarded, watched, at a phone's size."""
    context = browser.new_context(viewport={"width": width, "height": height})
    context.set_default_timeout(PATIENCE * 1000)
    guard(context)
    page = context.new_page()
    watch_console(page, label)
    return page


def kept_household(page: Page) -> dict | None:
    """The household this phone keeps (`{id, name, key, role, readerKey}`), or None."""
    return json.loads(page.evaluate("() => localStorage.getItem('referee.household')") or "null")


def household_key(page: Page) -> str | None:
    """The key this phone sends as `Household-Key`: a phone's first sheet or match makes one."""
    kept = kept_household(page)
    return kept["key"] if kept else None


def wait_until(condition, timeout: float = PATIENCE, every: float = 0.1):
    """Polls `condition()` until it is truthy (and returns it) or fails after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s")
        time.sleep(every)


def start_sheet(page: Page, game_label: str, players: list[str], options: dict[str, str] | None = None) -> str:
    """Starts a sheet from the home screen; `options` chooses some of the game's options first, by
    their words on the form (`{"How to score": "Points won from the others"}`)."""
    page.goto(BASE + "/#")
    page.get_by_label("Game", exact=True).select_option(label=game_label)
    form = page.locator("form", has=page.get_by_role("heading", name="New score sheet"))
    for label, choice in (options or {}).items():
        control = form.get_by_label(label, exact=True)
        if not control.is_visible():
            # The options are folded under the game's "scoring and length" summary.
            form.locator("details:not([open]) > summary").first.click()
        control.select_option(label=choice)
    while page.locator("ol.players input").count() < len(players):
        page.get_by_role("button", name="Add a player").click()
    for index, name in enumerate(players):
        page.locator("ol.players input").nth(index).fill(name)
    page.get_by_role("button", name="Start the sheet").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(", ".join(players))
    return page.url.split("#sheet=", 1)[1]


def standings_row(page: Page, name: str):
    return page.locator("table.standings tbody tr").filter(has=page.get_by_role("rowheader", name=name))


# "200 % text": a phone whose text size is doubled. The page's root is 112.5 % of the browser's
# text size (app.css), so doubled text makes it 225 %; rem and em sizes follow, px ones do not,
# as with the browser's own setting. Set through the DOM (the page's Content-Security-Policy
# refuses a style tag), it stays through the page's hash navigation.
BIG_TEXT = "225%"


def big_text(page: Page) -> None:
    """Doubles the page's text size (once per loaded document)."""
    page.evaluate("size => document.documentElement.style.setProperty('font-size', size)", BIG_TEXT)
    assert page.evaluate("() => getComputedStyle(document.documentElement).fontSize") == "36px"


def page_width(page: Page) -> int:
    """How wide the page is laid out, in CSS px: more than the window means sideways scrolling."""
    return page.evaluate("() => document.documentElement.scrollWidth")
