"""Drive the docs page (Swagger UI at /docs/) in headless Chromium, as a person trying the API would.

For every operation in /openapi.json: expand it, press "Try it out", fill the path parameters
(ids and tokens of fixtures made first through the API, or of the match and sheet the page's own
create examples made), keep the prefilled request body, press "Execute" and read the status the
page shows. Each status must be one the operation documents, and its success status, since every
example is meant to work. Requests to anything but this machine are blocked and fail the run.

Usage: docs_page.py BASE_URL [SCREENSHOT_DIR [PATH_REGEX]]   (Chromium at $CHROMIUM, as in page_kit.py)
Prints a table of results; exits 1 if any operation failed, with a screenshot of each failure.
"""

import json
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from fixtures import OPPONENT, PLAYER, Fixtures, call, make
# The browser and its flags (no download, update check or network service of its own) and this
# machine's names, as the table page's test has them.
from page_kit import CHROMIUM, LOCAL_HOSTS
from page_kit import LAUNCH_ARGS as CHROMIUM_ARGS
from playwright.sync_api import Locator, Page, Route, sync_playwright

METHODS = ("get", "post", "put", "patch", "delete")
# The examples tell one story (docs/contract.md, "Examples that work"): these run first, in this
# order, each on the match or sheet the previous ones created on the page.
STORY = [
    ("post", "/v1/matches"),
    ("post", "/v1/matches/{id}/chance"),
    ("post", "/v1/matches/{id}/corrections"),
    ("post", "/v1/matches/{id}/moves"),
    ("post", "/v1/matches/{id}/take-backs"),
    ("post", "/v1/sheets"),
    ("post", "/v1/sheets/{id}/entries"),
]
# A match's result, export, BG Stats play or rematch, and a sheet's BG Stats play or playing it
# again, need a finished one.
# A match's stream ends after its final entries, so a finished match's stream is one the page can
# show whole (a stream on a match in play stays open).
NEEDS_FINISHED = {
    "get_result", "export_match", "match_bgstats", "sheet_bgstats", "rematch", "stream_match",
    "rematch_sheet",
}
# The rating reads run on the fixtures' finished Lucky Jack match (PLAYER against OPPONENT, rated
# as it finished) and the documented sheet played to its end, so each must answer with data, not
# only its success status: the list named here must not be empty.
RATED = {
    "player_ratings": "games",
    "rating_history": "items",
    "rating_board": "items",
    "head_to_head": "items",
}
EXECUTE_TIMEOUT_MS = 30_000


@dataclass
class Result:
    method: str
    path: str
    operation_id: str
    status: str
    expected: str
    documented: list[str]
    ok: bool
    note: str = ""
    seconds: float = 0.0


def documents(status: str, documented: list[str]) -> bool:
    return any(key == status or (re.fullmatch(r"[1-5]XX", key) and status[:1] == key[0]) for key in documented)


def imported(shown: str) -> bool:
    """Whether an import's report says the documented file brought in (or matched) a play: its
    Lucky Jack plays must be, only its Catan play is skipped."""
    report = json.loads(shown)
    return report.get("created", 0) + report.get("matched", 0) > 0


def compact(text: str, limit: int) -> str:
    """One line of a JSON text the page shows, for the report."""
    try:
        text = json.dumps(json.loads(text), separators=(",", ":"))
    except ValueError:
        text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "..."


class DocsPage:
    def __init__(self, page: Page, base: str):
        self.page = page
        self.base = base
        self.current_token: str | None = None

    def operation(self, method: str, path: str) -> Locator:
        return self.page.locator(f".opblock.opblock-{method}").filter(
            has=self.page.locator(f'.opblock-summary-path[data-path="{path}"]')
        ).first

    def authorize(self, token: str) -> None:
        """Sets the bearer token through the page's "Authorize" dialog, as a reader would."""
        if token == self.current_token:
            return
        self.current_token = None
        self.page.locator(".scheme-container button.authorize").first.click()
        dialog = self.page.locator(".modal-ux")
        try:
            # Once authorized, the dialog hides the value behind "Logout"; log out to type anew.
            logout = dialog.locator('button[aria-label="Remove authorization"]')
            if logout.count():
                logout.first.click()
            dialog.locator("#auth-bearer-value").fill(token)
            dialog.locator("button.modal-btn.authorize").click()
            dialog.locator('button[aria-label="Remove authorization"]').wait_for()
            self.current_token = token
        finally:
            # An open dialog would cover every later operation.
            dialog.locator("button.close-modal").click()

    def execute(self, method: str, path: str, params: dict[str, str]) -> tuple[str, str, str]:
        """Runs one operation on the page; returns (status shown, body shown, request body sent)."""
        block = self.operation(method, path)
        block.scroll_into_view_if_needed()
        if not block.locator(".opblock-body").count():
            block.locator(".opblock-summary-control").click()
        try_out = block.locator("button.try-out__btn")
        if "cancel" not in (try_out.get_attribute("class") or ""):
            try_out.click()
        for name, value in params.items():
            # A header's value is keyed "header <name>"; any other is a path parameter's.
            where, _, name = name.rpartition(" ")
            field = block.locator(f'tr[data-param-name="{name}"][data-param-in="{where or "path"}"]').locator("input, select").first
            if field.evaluate("e => e.tagName") == "SELECT":
                field.select_option(value)
            else:
                field.fill(value)
        textarea = block.locator("textarea.body-param__text")
        sent = textarea.input_value() if textarea.count() else ""
        block.locator("button.execute").click()
        status_cell = block.locator(".live-responses-table tbody .response-col_status").first
        status_cell.wait_for(timeout=EXECUTE_TIMEOUT_MS)
        # The cell says "422" or, for a status the operation does not document, "422 Undocumented".
        status = status_cell.inner_text().split()[0]
        body = block.locator(".live-responses-table tbody .response-col_description pre").first
        shown = body.inner_text() if body.count() else ""
        return status, shown, sent

    def collapse(self, method: str, path: str) -> None:
        """Folds an operation away once tried: a page with every operation open grows slow."""
        block = self.operation(method, path)
        if block.locator(".opblock-body").count():
            block.locator(".opblock-summary-control").click()

    def screenshot(self, method: str, path: str, file: Path) -> None:
        file.parent.mkdir(parents=True, exist_ok=True)
        try:
            self.operation(method, path).screenshot(path=str(file))
        except Exception:  # noqa: BLE001 - a block too odd to capture still gets the whole page
            self.page.screenshot(path=str(file), full_page=True)


def path_values(
    operation_id: str, path: str, fixtures: Fixtures, story: dict, base: str
) -> tuple[dict, str | None]:
    """The path parameters a reader would type for one operation, and the token it is tried with."""
    values: dict[str, str] = {}
    token = None
    lobby = fixtures.lobby
    if ("post", path) in STORY and "{id}" in path:
        values["id"], token = story["match" if path.startswith("/v1/matches") else "sheet"]
    elif operation_id in {"rename_seat", "reissue_seat_invite", "reissue_seat_token"}:
        values["id"], values["seat"], token = lobby.id, "2", lobby.owner_token
    elif operation_id == "abandon_match":
        values["id"], token = fixtures.abandonable.id, fixtures.abandonable.owner_token
    elif operation_id in {"abandon_sheet", "stream_sheet"}:
        # A sheet's stream ends only once it is abandoned (a finished sheet still takes
        # corrections); abandoning it first changes nothing for `abandon_sheet`, which may repeat.
        sheet = fixtures.abandonable_sheet
        if operation_id == "stream_sheet":
            call(base, "POST", f"/v1/sheets/{sheet.id}/abandon", token=sheet.owner_token)
        values["id"], token = sheet.id, sheet.owner_token
    elif operation_id in fixtures.mendable_sheets:
        # Each documented mending (at version 1) on a sheet of its own with one round; seat 1 is
        # renamed to a name no one at the table has.
        sheet = fixtures.mendable_sheets[operation_id]
        values["id"], token = sheet.id, sheet.owner_token
        if "{seat}" in path:
            values["seat"] = "1"
    elif operation_id in {"enter_hand", "entered_hands"}:
        # Hands are entered for a table match waiting for its deal (the owner may enter any seat's).
        values["id"], token = fixtures.awaiting_deal.id, fixtures.awaiting_deal.owner_token
        if "{seat}" in path:
            values["seat"] = "1"
    elif path.startswith("/v1/matches/{id}"):
        # The owner may do everything a seat may, and more (a rematch).
        match = fixtures.finished if operation_id in NEEDS_FINISHED else fixtures.live
        values["id"], token = match.id, match.owner_token
    elif path.startswith("/v1/sheets/{id}"):
        sheet = fixtures.finished_sheet if operation_id in NEEDS_FINISHED else fixtures.sheet
        values["id"], token = sheet.id, sheet.owner_token
    elif path.startswith("/v1/households/{id}"):
        # Read, and its reader key replaced, with the owner key (which stays good).
        values["id"], values["header Household-Key"] = fixtures.household
        if "{role}" in path:
            values["role"] = "reader"
    if "{ply}" in path:
        values["ply"] = "1"
    if "{game}" in path:
        values["game"] = "lucky-jack"
    if "{name}" in path:
        values["name"] = PLAYER
    if "{opponent}" in path:
        values["opponent"] = OPPONENT
    if "{code}" in path:
        values["code"] = lobby.invite_codes[0]
    return values, token


# Each game's own operations (`/v1/games/<slug>/...`) are the page's same steps five times over,
# with that game's example body; every documented example is sent and checked for its success by
# tests/api/openapi.rs. The page tries one game's (about a third of the run's time saved).
TRIED_GAME = "lucky-jack"


def tried_here(path: str) -> bool:
    game = re.match(r"^/v1/games/([a-z-]+)/", path)
    return game is None or game.group(1) == TRIED_GAME


def framing_refused(context, base: str) -> bool:
    """Whether a page of another origin that frames /docs/ is refused (issue 25, item 11): the
    docs share their origin with the table page, whose owner tokens live in localStorage, so a
    framing site could trick a click. The frame must never show Swagger UI."""
    page = context.new_page()
    try:
        page.set_content(f'<iframe id="docs" src="{base}/docs/" width="800" height="600"></iframe>')
        page.wait_for_timeout(3_000)
        loaded = [frame for frame in page.frames[1:] if frame.url.startswith(base)]
        shows_docs = any(frame.locator("#swagger-ui").count() > 0 for frame in loaded)
        print(f"framing /docs/ from another page: {'shown (FAIL)' if shows_docs else 'refused'}", flush=True)
        return not shows_docs
    finally:
        page.close()


def main() -> int:
    base = sys.argv[1].rstrip("/")
    shots = Path(sys.argv[2] if len(sys.argv) > 2 else "target/browser/docs")
    only = sys.argv[3] if len(sys.argv) > 3 else ""
    spec = call(base, "GET", "/openapi.json")
    fixtures = make(base, spec)

    operations = [
        (method, path, operation)
        for path, item in spec["paths"].items()
        for method, operation in item.items()
        if method in METHODS and re.search(only, path) and tried_here(path)
    ]
    operations.sort(key=lambda op: STORY.index((op[0], op[1])) if (op[0], op[1]) in STORY else len(STORY))

    outside: list[str] = []
    results: list[Result] = []
    # The story's match and sheet: (id, owner token), read from the page's own answers.
    story: dict[str, tuple[str, str]] = {}

    def keep_local(route: Route) -> None:
        if urlsplit(route.request.url).hostname in LOCAL_HOSTS:
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS
        )
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        context.route("**/*", keep_local)
        framed = framing_refused(context, base)
        page = context.new_page()
        # The page runs under its Content-Security-Policy (issue 25): anything it refuses shows as
        # a console message, and fails the run, so the policy can never quietly break the page.
        refused: list[str] = []
        page.on(
            "console",
            lambda message: refused.append(message.text) if "Content Security Policy" in message.text else None,
        )
        # Long enough for a machine running all of CI at once; a passing run never waits this long.
        page.set_default_timeout(30_000)
        page.goto(f"{base}/docs/")
        page.wait_for_selector(".opblock", timeout=30_000)
        docs = DocsPage(page, base)

        for method, path, operation in operations:
            operation_id = operation.get("operationId", f"{method} {path}")
            documented = list(operation.get("responses", {}))
            successes = [s for s in documented if re.fullmatch(r"2\d\d", s)]
            expected = successes[0] if successes else "2xx"
            result = Result(method.upper(), path, operation_id, "", expected, documented, False)
            results.append(result)
            started = time.monotonic()
            try:
                if path.startswith(("/v1/matches/{id}", "/v1/sheets/{id}")) and ("post", path) in STORY:
                    needed = "match" if path.startswith("/v1/matches") else "sheet"
                    if needed not in story:
                        result.note = f"no {needed}: its create example did not create one on the page"
                        continue
                params, token = path_values(operation_id, path, fixtures, story, base)
                if operation.get("security") and token:
                    docs.authorize(token)
                status, shown, sent = docs.execute(method, path, params)
                result.status = status
                result.ok = status == expected and documents(status, documented)
                if not result.ok:
                    why = "undocumented status" if not documents(status, documented) else "not the success"
                    result.note = f"{why}; answered {compact(shown, 500)}; sent {compact(sent, 300)}"
                elif operation_id in RATED and not json.loads(shown).get(RATED[operation_id]):
                    result.ok = False
                    result.note = f"no rated data ({RATED[operation_id]} empty); answered {compact(shown, 500)}"
                elif operation_id == "import_bgstats" and not imported(shown):
                    result.ok = False
                    result.note = f"the documented file brought in no play; answered {compact(shown, 500)}"
                elif (method, path) == ("post", "/v1/matches"):
                    created = json.loads(shown)
                    story["match"] = (created["match"]["id"], created["owner_token"])
                elif (method, path) == ("post", "/v1/sheets"):
                    created = json.loads(shown)
                    story["sheet"] = (created["sheet"]["id"], created["owner_token"])
            except Exception as error:  # noqa: BLE001 - one operation's trouble must not hide the rest
                result.note = f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
            finally:
                result.seconds = time.monotonic() - started
                if not result.ok:
                    docs.screenshot(method, path, shots / f"{operation_id}.png")
                try:
                    docs.collapse(method, path)
                except Exception:  # noqa: BLE001 - an operation left open only slows the rest
                    pass
                print(f"{result.method} {path}: {result.status or '-'} {'ok' if result.ok else 'FAIL ' + result.note[:300]}", flush=True)
        browser.close()

    width = max(len(f"{r.method} {r.path}") for r in results)
    print(f"{'operation':<{width}}  status  expected  result  seconds")
    for r in results:
        print(f"{r.method + ' ' + r.path:<{width}}  {r.status or '-':<6}  {r.expected:<8}  {'ok' if r.ok else 'FAIL':<6}  {r.seconds:.1f}")
    failed = [r for r in results if not r.ok]
    for r in failed:
        print(f"\nFAIL {r.method} {r.path} ({r.operation_id}): {r.note}")
    if outside:
        print(f"\nFAIL: the page tried to reach {len(outside)} address(es) off this machine (blocked):")
        for url in sorted(set(outside)):
            print(f"  {url}")
    if refused:
        print(f"\nFAIL: the page broke its own Content-Security-Policy {len(refused)} time(s):")
        for text in sorted(set(refused)):
            print(f"  {text[:300]}")
    if not framed:
        print("\nFAIL: another page could frame /docs/ (it must send frame-ancestors 'none')")
    print(f"\n{len(results) - len(failed)} of {len(results)} operations answered their documented success")
    return 1 if failed or outside or refused or not framed else 0


if __name__ == "__main__":
    sys.exit(main())
