"""The page as an app: refusals in plain words, dark mode, large text, installable and offline."""

from playwright.sync_api import expect

import page_kit
from page_kit import BASE, api, check, new_phone, wait_until

NO_SHEET = "00000000-0000-0000-0000-000000000000"


def plain_refusals(browser):
    """A family meets refusals as plain words from the catalogue, never the service's detail."""
    page = new_phone(browser, "refusals")
    # A shared link to a sheet that does not exist.
    page.goto(f"{BASE}/#sheet={NO_SHEET}")
    expect(page.get_by_text("There is no score sheet with that link")).to_be_visible()
    expect(page.get_by_text("no score sheet has id")).to_have_count(0)
    expect(page.get_by_text("unknown_sheet")).to_have_count(0)
    check(page, "app-refusal-sheet")

    # Looking back at a game the service does not have: the words go beside the game's field.
    page.goto(f"{BASE}/#board=no-such-game")
    game = page.get_by_label("Game", exact=True)
    expect(game).to_have_attribute("aria-invalid", "true")
    expect(game).to_have_accessible_description("That game is not one this service knows. Choose a game from the list.")
    expect(game).to_be_focused()
    expect(page.get_by_text("known games:")).to_have_count(0)
    check(page, "app-refusal-look-back")

    # What the page's own modules make of refusals: serde's words never reach a person, seats
    # are named, and a code the catalogue lacks reads as its title, never its detail.
    words = page.evaluate(
        """async () => {
            const { post } = await import('/app/api.js');
            const { explain, placeOf } = await import('/app/messages.js');
            let malformed = null;
            try { await post('/v1/sheets', { game: 'plus-minus', players: ['Zoé'] }); }
            catch (refusal) { malformed = refusal.message; }
            let tooFew = null;
            try { await post('/v1/sheets', { game: 'plus-minus', players: [{ name: 'Zoé' }, { name: 'Ben' }] }); }
            catch (refusal) { tooFew = refusal.message; }
            return {
                malformed, tooFew,
                turn: explain({ code: 'not_your_turn', params: { seat: 0, turn: 1 } }, { names: ['Zoé', 'Ben'] }),
                newer: explain({ code: 'from_a_newer_service', title: 'A newer problem', detail: 'internal words' }),
                tableWide: placeOf({ code: 'game_over' }),
                aboutBen: placeOf({ code: 'wrong_face_count', params: { seat: 1, expected: 3, got: 2 } }),
            };
        }"""
    )
    assert words["malformed"].startswith("The page sent something the service could not read"), words
    assert words["tooFew"] == "This game needs 3 to 6 players, not 2.", words
    assert words["turn"] == "Zoé, it is Ben’s turn, not yours.", words
    assert words["newer"] == "A newer problem", words
    assert words["tableWide"] == {"seat": None, "field": None}, words
    assert words["aboutBen"] == {"seat": 1, "field": "dice"}, words
    page.context.close()


def dark_mode(browser):
    """With the phone in dark mode the page turns dark, and every screen stays readable (axe)."""
    page = new_phone(browser, "dark")
    page.emulate_media(color_scheme="dark")
    page.goto(BASE + "/#")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    background = page.evaluate("getComputedStyle(document.documentElement).backgroundColor")
    assert background == "rgb(18, 22, 20)", background
    check(page, "app-dark-home")
    sheet = api("POST", "/v1/sheets", {"game": "lucky-jack", "players": [{"name": "Mum"}, {"name": "Dad"}]})
    page.goto(f"{BASE}/#sheet={sheet['sheet']['id']}")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Mum")
    check(page, "app-dark-sheet")
    page.goto(BASE + "/#look")
    expect(page.get_by_role("heading", level=1, name="Look back")).to_be_visible()
    check(page, "app-dark-look-back")
    page.goto(f"{BASE}/#sheet={NO_SHEET}")
    expect(page.get_by_text("There is no score sheet with that link")).to_be_visible()
    check(page, "app-dark-refusal")
    page.context.close()


def large_text(browser):
    """At twice the text size the screens reflow: nothing runs off a 390 px phone."""
    page = new_phone(browser, "large text")
    for screen, heading in (("/#", None), ("/#look", "Look back"), ("/#watch", None)):
        page.goto(BASE + screen)
        expect(page.get_by_role("heading", level=1, name=heading) if heading else page.get_by_role("heading", level=1)).to_be_visible()
        page.evaluate("document.documentElement.style.fontSize = '200%'")
        size = page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")
        assert size >= 32, size
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{screen} is {width} px wide at 200% text"
    page.goto(BASE + "/#")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    check(page, "app-large-text-home")
    page.context.close()


def installable_offline(browser):
    """The page can be installed (manifest), a service worker keeps it, and it opens offline."""
    page = new_phone(browser, "offline")
    page.goto(BASE + "/")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    href = page.locator('link[rel="manifest"]').get_attribute("href")
    assert href == "/app/manifest.webmanifest", href
    manifest = page.evaluate(
        """async (href) => {
            const response = await fetch(href);
            return { type: response.headers.get('content-type'), body: await response.json() };
        }""",
        href,
    )
    assert manifest["type"].startswith("application/manifest+json"), manifest
    body = manifest["body"]
    assert body["start_url"] == "/" and body["display"] == "standalone", body
    assert body["name"] and body["short_name"] and body["theme_color"] and body["background_color"], body
    sizes = {icon["sizes"] for icon in body["icons"]}
    assert {"192x192", "512x512"} <= sizes, sizes
    for icon in body["icons"]:
        kind = page.evaluate("async (src) => (await fetch(src)).headers.get('content-type')", icon["src"])
        assert kind == icon["type"], (icon, kind)
    worker = page.evaluate(
        """async () => {
            const response = await fetch('/sw.js');
            return { status: response.status, type: response.headers.get('content-type'),
                     cache: response.headers.get('cache-control') };
        }"""
    )
    assert worker["status"] == 200 and worker["type"].startswith("text/javascript"), worker
    assert worker["cache"] in ("no-cache", "no-store"), worker

    # Registered by the page itself; after a reload it controls the page.
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    wait_until(lambda: page.evaluate("navigator.serviceWorker.controller !== null"))
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == BASE + "/", scope

    # The API is never kept by the worker: only the page's own files are.
    kept = page.evaluate(
        """async () => {
            const cache = await caches.open((await caches.keys())[0]);
            return (await cache.keys()).map((request) => new URL(request.url).pathname);
        }"""
    )
    assert "/" in kept and "/app/app.js" in kept, kept
    assert not [path for path in kept if path.startswith("/v1/")], kept

    # Offline: the page's shell still opens from the phone, and says why the rest is missing.
    page.context.set_offline(True)
    page.reload()
    expect(page.get_by_role("navigation", name="Main").get_by_role("link", name="Keep score")).to_be_visible()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    expect(page.get_by_text("Loading…")).to_have_count(0)
    check(page, "app-offline")
    page.context.set_offline(False)
    page.context.close()
    # Chromium logs each request that found no network while offline: expected here, and only here.
    offline = "offline: console: Failed to load resource: net::ERR_INTERNET_DISCONNECTED"
    page_kit.page_errors[:] = [error for error in page_kit.page_errors if error != offline]


STEPS = [plain_refusals, dark_mode, large_text, installable_offline]
