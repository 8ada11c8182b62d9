"""Each game's table in the browser: a seat's phone shows its own hand (or dice, or lei) as named
pictures first, then the piles, the other players and whose turn it is, with no raw keys.

The table shell that will call `web/tables/index.js` is being rewritten; until its page renders
the game's table itself, the walk draws the table into the match page with the page's own module,
from the seat's real view, and checks that screen.
"""

import random

from playwright.sync_api import Page, expect

from page_kit import BASE, api, check, new_phone

GAMES = {
    # game: (players, options, the first part of a seat's table, what a card picture's list is called)
    "lucky-jack": (3, {"max_turns_per_round": 8}, "Your hand", "Your cards"),
    "luck-plus": (3, {"target": 1}, "Your hand", "Your cards"),
    "plus-minus": (3, {"rounds": 1}, "Your hand", "Your cards"),
    "lucky-dice": (3, {"coaster_target": 2}, "Your dice and coaster", None),
    "lucky-luau": (2, {}, "Your lei", "Your lei, left to right"),
}
NAMES = ["Ann", "Ben", "Zoé"]

DRAW = """async ([id, token]) => {
  const { tableFor } = await import('/app/tables/index.js');
  const response = await fetch(`/v1/matches/${id}`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  const match = await response.json();
  const seat = match.viewer && match.viewer.seat !== undefined ? match.viewer.seat : null;
  const ctx = { names: match.seats.map((s) => s.name), seat, game: match.game, options: match.options, randomness: match.randomness, level: 3 };
  const host = document.createElement('section');
  host.setAttribute('aria-labelledby', 'games-walk-title');
  const title = document.createElement('h2');
  title.id = 'games-walk-title';
  title.textContent = 'At the table';
  host.append(title, tableFor(match.game).renderTable(match.view, ctx));
  document.getElementById('main').append(host);
}"""


def play_a_little(match_id: str, tokens: dict, moves: int, rng: random.Random) -> None:
    """A few legal moves from the seats to act, so the table has something on it."""
    for _ in range(moves):
        state = api("GET", f"/v1/matches/{match_id}")
        if state["status"] != "in_progress":
            return
        for seat in state["to_act"]:
            legal = api("GET", f"/v1/matches/{match_id}", token=tokens[seat])["view"]["legal_moves"]
            if legal:
                api("POST", f"/v1/matches/{match_id}/moves", {"move": rng.choice(legal)}, tokens[seat])
                break


def open_table(page: Page, match_id: str, token) -> None:
    page.goto(f"{BASE}/#match={match_id}" + (f"&token={token}" if token else ""))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Ann")
    # The shell draws the game's table itself once it is rewritten; until then the walk does.
    if page.locator(".game-table").count() == 0:
        page.evaluate(DRAW, [match_id, token])
    expect(page.locator(".game-table")).to_have_count(1)


def each_games_table(browser) -> None:
    rng = random.Random(27)
    for game, (players, options, first_part, cards_list) in GAMES.items():
        created = api("POST", "/v1/matches", {"game": game, "seats": [{"name": n} for n in NAMES[:players]], "options": options})
        match_id = created["match"]["id"]
        tokens = {seat["seat"]: seat["token"] for seat in created["seat_tokens"]}
        play_a_little(match_id, tokens, 6, rng)
        acting = api("GET", f"/v1/matches/{match_id}")["to_act"]
        seat = acting[0] if acting else 0
        seen = api("GET", f"/v1/matches/{match_id}", token=tokens[seat])
        phone = new_phone(browser, f"{game}-seat")
        open_table(phone, match_id, tokens[seat])
        table = phone.locator(".game-table")
        # Your own things come first, as pictures with names.
        first = table.get_by_role("heading").first
        expect(first).to_have_text(first_part)
        if cards_list:
            pictures = table.get_by_role("list", name=cards_list, exact=True).get_by_role("img")
            expected = {
                "lucky-jack": lambda v: len(v["hands"][seat]),
                "luck-plus": lambda v: len(v["hands"][seat]),
                "plus-minus": lambda v: len(v["hands"][seat]),
                "lucky-luau": lambda v: len(v["seats"][seat]["lei"]),
            }[game](seen["view"])
            expect(pictures).to_have_count(expected)
        else:
            expect(table.get_by_role("img", name=f"You have {seen['view']['pools'][seat]} di", exact=False)).to_be_visible()
        # Whose turn it is, in words; players by name; nothing a programmer would write.
        status = table.locator(".table-status")
        expect(status).not_to_be_empty()
        expect(table.get_by_role("list", name="Players")).to_contain_text(NAMES[1])
        text = table.inner_text()
        for raw in ("undefined", "null", "[object", "{", "_"):
            assert raw not in text, f"{game}: {raw!r} on the table:\n{text}"
        check(phone, f"table-{game}")
        phone.context.close()

    # A spectator sees the table without anyone's hidden hand; at a table that deals its own
    # cards, the page says what it waits for.
    created = api("POST", "/v1/matches", {"game": "lucky-jack", "seats": [{"name": n} for n in NAMES], "options": {}, "randomness": "table"})
    spectator = new_phone(browser, "table-spectator")
    open_table(spectator, created["match"]["id"], None)
    table = spectator.locator(".game-table")
    expect(table.get_by_role("heading", name="Your hand")).to_have_count(0)
    expect(table.get_by_role("img", name="Draw pile: 84 cards")).to_be_visible()
    expect(table.locator(".table-status")).to_have_text("Waiting for the cards of round 1 to be dealt.")
    check(spectator, "table-spectator")
    spectator.context.close()

    # A finished Lucky Luau: every lei scored card by card, in words.
    created = api("POST", "/v1/matches", {"game": "lucky-luau", "seats": [{"name": n} for n in NAMES[:2]]})
    match_id = created["match"]["id"]
    tokens = {seat["seat"]: seat["token"] for seat in created["seat_tokens"]}
    for _ in range(400):
        state = api("GET", f"/v1/matches/{match_id}")
        if state["status"] != "in_progress":
            break
        seat = state["to_act"][0]
        legal = api("GET", f"/v1/matches/{match_id}", token=tokens[seat])["view"]["legal_moves"]
        # String what is drawn (no tools), so the game ends in one pass over the pile.
        chosen = next((m for m in legal if m["type"] in ("string", "draw_face_down", "finish")), legal[0])
        api("POST", f"/v1/matches/{match_id}/moves", {"move": {"type": "finish"} if chosen["type"] == "finish" else chosen}, tokens[seat])
    final = api("GET", f"/v1/matches/{match_id}", token=tokens[0])
    assert final["status"] == "finished", final["status"]
    phone = new_phone(browser, "table-luau-finished")
    open_table(phone, match_id, tokens[0])
    table = phone.locator(".game-table")
    expect(table.locator(".table-status")).to_have_text("The game is over.")
    # Each lei's card-by-card score is folded under its total; a tap opens it.
    total = final["view"]["score"]["totals"][0]
    summary = table.locator("summary", has_text=f"Ann: {total} point")
    expect(summary).to_be_visible()
    scored = table.get_by_role("list", name="Ann’s score")
    expect(scored).to_be_hidden()
    summary.click()
    expect(scored).to_contain_text(f"Total: {total}")
    check(phone, "table-luau-finished")
    phone.context.close()


STEPS = [each_games_table]
