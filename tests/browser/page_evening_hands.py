"""The family's evening with its own cards, each hand on its own phone: in a table-randomness
Lucky Jack match hosted from the page, each player taps in their own hand on their own phone and
the host enters only the card turned up, so no phone, the host's included, shows another
player's hand. Each step is a sentence of what the family sees; before hands could be entered
seat by seat, the host tapped in all 3 × 7 cards plus the turned-up one and saw every hand."""

import re

from playwright.sync_api import Page, expect

from page_kit import BASE, api, check, new_phone
from page_table import host_form

NAMES = ["Mum", "Dad", "Zoé"]
# Each player's hand, as dealt at the table (12 of each symbol in the deck).
HANDS = [
    ["lemon", "lemon", "cherry", "grape", "bell", "seven", "jack"],
    ["cherry", "cherry", "clover", "clover", "bell", "seven", "lemon"],
    ["grape", "grape", "jack", "bell", "clover", "cherry", "jack"],
]
# Zoé first taps a seven for her last jack, then changes it.
ZOE_FIRST_TRY = HANDS[2][:-1] + ["seven"]
TURNED_UP = "seven"
# The old way: "Enter the deal", every card of every hand and the turned-up one, "Report the deal".
OLD_FORM_TAPS = 1 + 3 * 7 + 1 + 1

# Counts the taps (trusted clicks on a control) a phone's person makes, from when it is set.
TAP_COUNTER = """() => {
    window.__taps = 0;
    if (window.__counting) return;
    window.__counting = true;
    document.addEventListener('click', (event) => {
        if (event.isTrusted && event.target.closest('button, a, summary, input, select')) window.__taps += 1;
    }, true);
}"""


def turn(page: Page):
    return page.locator("p.turn")


def tap_cards(scope, group_name: str, hand: list[str]) -> None:
    """Taps each card on offer in the picker named `group_name` (not a chosen one's "Remove")."""
    group = scope.get_by_role("group", name=group_name)
    for card in hand:
        group.get_by_role("button", name=re.compile(rf"^(?!remove\b).*\b{card}\b", re.I)).first.click()


def shown_faces(page: Page) -> list[str]:
    """The cards a phone shows as pictures, outside the pickers' offers and picks: what it shows
    of anyone's hand, the table's piles included."""
    return page.evaluate(
        """() => [...document.querySelectorAll('main .card-face[role=img]')]
            .filter((face) => !face.closest('.offer, .picked, .pick-offer'))
            .map((face) => face.getAttribute('aria-label'))"""
    )


def label(card: str) -> str:
    return {"seven": "Seven"}.get(card, card.capitalize())


def hands_in(value) -> list[list[str]]:
    """Every list of seven card names anywhere in a JSON answer."""
    found = []
    if isinstance(value, list):
        if len(value) == 7 and all(isinstance(item, str) for item in value):
            found.append(value)
        for item in value:
            found += hands_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            found += hands_in(item)
    return found


def never_received_another_hand(log: list, seat) -> None:
    """No answer this phone received holds any hand but its own (`seat`: None for none)."""
    others = [sorted(hand) for index, hand in enumerate(HANDS) if index != seat] + ([sorted(ZOE_FIRST_TRY)] if seat != 2 else [])
    for url, body in log:
        for hand in hands_in(body):
            assert sorted(hand) not in others, (seat, url, hand)


def record(page: Page) -> list:
    """The JSON answers a phone gets from the service about matches, kept to look into."""
    log: list = []

    def on_response(response):
        if "/v1/matches/" not in response.url or response.request.method != "GET":
            return
        if "application/json" not in (response.headers.get("content-type") or "") or response.status != 200:
            return
        try:
            log.append((response.url.split("?")[0], response.json()))
        except Exception:  # noqa: BLE001 - a body the page stopped reading
            pass

    page.on("response", on_response)
    return log


def each_player_taps_in_their_own_hand_and_the_host_only_the_card_turned_up(browser) -> None:
    """Mum hosts Lucky Jack with our own cards for the three of us; each phone takes its seat by
    its invite, shows "Your hand" with seven cards to tap and "This is my hand", then "Your hand
    is in" with those cards and "Change it"; the host sees "Hands entered: Mum ✓, Dad waiting,
    …" and a form with the turned-up card only, reports the deal, and the service deals each
    player the hand they entered. No phone shows another's hand. The host's taps are counted
    against the old form's 3 × 7 + 1 cards."""
    host = new_phone(browser, "hands-host")
    host_form(host, NAMES, table_randomness=True)
    host.get_by_role("button", name="Host the match").click()
    expect(host.get_by_role("heading", level=1)).to_have_text("Lucky Jack: Mum, Dad, Zoé")
    match_id = host.url.split("#host=", 1)[1]
    codes = {
        name: host.locator("li.invite-card").filter(has=host.get_by_role("heading", name=name, exact=True)).locator(".code").inner_text().strip()
        for name in NAMES
    }
    owner = host.evaluate("(id) => JSON.parse(localStorage.getItem('referee.hosted'))[id].token", match_id)
    household = host.evaluate("() => JSON.parse(localStorage.getItem('referee.household')).key")
    host_log = record(host)
    host.get_by_role("link", name="Open the table").click()
    expect(turn(host)).to_contain_text("Waiting for the cards to be dealt")

    # The host: who has entered their hand, and a form for the card turned up alone.
    entered = host.locator("p.hands-entered")
    expect(entered).to_have_text("Hands entered: Mum waiting, Dad waiting, Zoé waiting.")
    public = host.get_by_role("form", name="Enter the card turned up")
    expect(public.get_by_role("group", name="The card turned up (1)").first).to_be_visible()
    expect(public.get_by_role("group", name=re.compile("’s cards"))).to_have_count(0)
    expect(host.get_by_role("heading", name="Your hand")).to_have_count(0)
    check(host, "hands-host-waiting")
    # The old form stays a tap away, for a table where someone has no phone; Cancel comes back.
    host.get_by_role("button", name="Enter the deal with every hand here instead").click()
    full = host.get_by_role("form", name="Enter the deal")
    expect(full.get_by_role("group", name="Mum’s cards (7)").first).to_be_visible()
    full.get_by_role("button", name="Cancel").click()
    expect(public).to_be_visible()
    host.evaluate(TAP_COUNTER)

    # Each phone takes its seat by its invite and taps in its own hand.
    phones: dict[str, Page] = {}
    logs: dict[str, list] = {}
    for name in NAMES:
        phone = new_phone(browser, f"hands-{name}")
        logs[name] = record(phone)
        phone.goto(f"{BASE}/#invite={codes[name]}")
        phone.get_by_role("button", name=f"Take {name}’s seat").click()
        expect(turn(phone)).to_have_text(f"Your hand, {name}: once the cards are dealt, tap yours in below.")
        phones[name] = phone
    mum, dad, zoe = (phones[name] for name in NAMES)

    form = mum.get_by_role("form", name="Your hand")
    expect(form.get_by_role("group", name="Your cards (7)").first).to_be_visible()
    # Only this seat's own hand to tap: no other player's, and no turned-up card.
    expect(form.get_by_role("group", name=re.compile("’s cards|turned up"))).to_have_count(0)
    expect(mum.get_by_role("form", name="Enter the card turned up")).to_have_count(0)
    expect(mum.locator("p.hands-entered")).to_have_text("Hands entered: Mum waiting, Dad waiting, Zoé waiting.")
    check(mum, "hands-seat-form")
    # Too few cards: said in words, next to the hand.
    tap_cards(form, "Your cards (7)", HANDS[0][:5])
    form.get_by_role("button", name="This is my hand").click()
    expect(form).to_contain_text("Tap 7 for your cards: 5 so far.")
    tap_cards(form, "Your cards (7)", HANDS[0][5:])
    form.get_by_role("button", name="This is my hand").click()
    done = mum.get_by_role("region", name="Your hand is in")
    expect(done).to_be_visible()
    expect(done.get_by_role("list", name="Your hand: 7 cards").get_by_role("img")).to_have_count(7)
    assert sorted(shown_faces(mum)) == sorted(label(card) for card in HANDS[0]), shown_faces(mum)
    expect(done.get_by_role("button", name="Change it")).to_be_visible()
    expect(turn(mum)).to_have_text("Waiting for the cards to be dealt.")
    check(mum, "hands-seat-in")
    expect(entered).to_have_text("Hands entered: Mum ✓, Dad waiting, Zoé waiting.")
    expect(dad.locator("p.hands-entered")).to_have_text("Hands entered: Mum ✓, Dad waiting, Zoé waiting.")

    form = dad.get_by_role("form", name="Your hand")
    tap_cards(form, "Your cards (7)", HANDS[1])
    form.get_by_role("button", name="This is my hand").click()
    expect(dad.get_by_role("region", name="Your hand is in")).to_be_visible()
    # Dad's phone may not enter Mum's hand: the service refuses it, and the page says so in words.
    refusal = dad.evaluate(
        """async ([id, cards]) => {
            const { enterHand } = await import('/app/api.js');
            const token = JSON.parse(localStorage.getItem('referee.seats'))[id];
            try { await enterHand(id, 0, cards, { token }); return null; }
            catch (error) { return { code: error.problem.code, status: error.problem.status, words: error.message }; }
        }""",
        [match_id, HANDS[1]],
    )
    assert refusal and refusal["status"] == 403, refusal
    assert refusal["words"] in (
        "This phone plays another seat: it can enter only its own hand.",
        "This phone holds another player’s place. Only that player can do this.",
    ), refusal

    # The host taps the card turned up and reports too early: Zoé's hand is missing, said in words.
    expect(entered).to_have_text("Hands entered: Mum ✓, Dad ✓, Zoé waiting.")
    tap_cards(public, "The card turned up (1)", [TURNED_UP])
    public.get_by_role("button", name="Report the deal").click()
    expect(public.get_by_role("alert")).to_have_text("Zoé has not tapped in their hand yet. Wait for them, or enter every hand on one phone instead.")
    check(host, "hands-host-missing")

    # Zoé taps a seven for a jack, sees her hand in, and changes it.
    form = zoe.get_by_role("form", name="Your hand")
    tap_cards(form, "Your cards (7)", ZOE_FIRST_TRY)
    form.get_by_role("button", name="This is my hand").click()
    done = zoe.get_by_role("region", name="Your hand is in")
    expect(done).to_be_visible()
    done.get_by_role("button", name="Change it").click()
    form = zoe.get_by_role("form", name="Your hand")
    expect(form).to_contain_text("7 of 7 tapped")
    form.get_by_role("group", name="Your cards (7)").get_by_role("button", name=re.compile(r"^remove\b.*\bseven\b", re.I)).first.click()
    tap_cards(form, "Your cards (7)", ["jack"])
    form.get_by_role("button", name="This is my hand").click()
    expect(done).to_be_visible()
    assert sorted(shown_faces(zoe)) == sorted(label(card) for card in HANDS[2]), shown_faces(zoe)
    expect(entered).to_have_text("Hands entered: Mum ✓, Dad ✓, Zoé ✓. Every hand is in.")

    # No phone shows another's hand: each shows its own cards only, the host none at all.
    for index, name in enumerate(NAMES):
        faces = shown_faces(phones[name])
        assert sorted(faces) == sorted(label(card) for card in HANDS[index]), (name, faces)
        assert phones[name].get_by_role("group", name=re.compile("’s cards")).count() == 0, name
    assert shown_faces(host) == [], shown_faces(host)
    assert host.get_by_role("group", name=re.compile("’s cards")).count() == 0
    for index, name in enumerate(NAMES):
        never_received_another_hand(logs[name], index)
    never_received_another_hand(host_log, None)

    # The host reports the deal: the card turned up is still tapped in.
    public.get_by_role("button", name="Report the deal").click()
    expect(public).to_have_count(0)
    expect(turn(host)).not_to_contain_text("Waiting for the cards")
    taps = host.evaluate("() => window.__taps")
    log = api("GET", f"/v1/matches/{match_id}/log?after=0&limit=10", token=owner, household=household)["entries"]
    first = log[0]["chance"]
    assert first["kind"] == "deal" and first["flip"] == TURNED_UP, first
    assert first["hands"] == HANDS, first["hands"]
    # Each phone now holds the hand it entered, and still no other.
    for index, name in enumerate(NAMES):
        phone = phones[name]
        expect(phone.get_by_role("region", name="Your hand is in")).to_have_count(0)
        expect(phone.get_by_role("form", name="Your hand")).to_have_count(0)
        faces = shown_faces(phone)
        assert all(faces.count(label(card)) >= HANDS[index].count(card) for card in HANDS[index]), (name, faces)
        never_received_another_hand(logs[name], index)
    assert label(TURNED_UP) in shown_faces(host) and len(shown_faces(host)) == 1, shown_faces(host)
    check(host, "hands-host-dealt")
    check(dad, "hands-seat-dealt")
    print(
        f"host taps for the deal: {taps} (the card turned up, a Report the deal refused while Zoé's hand was missing, "
        f"and Report the deal); needed: {taps - 1}; the old full form: {OLD_FORM_TAPS} "
        f"(Enter the deal, 3 × 7 + 1 = 22 cards, Report the deal)",
        flush=True,
    )
    assert taps == 3, taps
    for phone in (*phones.values(), host):
        phone.context.close()


# Luck Plus deals 8 cards a hand and turns up cards until one is not a LUCK PLUS; Plus & Minus
# deals 2 a hand and 2 face up before each player.
OTHER_GAMES = {
    "luck-plus": {
        "hands": [[f"GO-{n}" for n in range(1, 9)], [f"STOP-{n}" for n in range(1, 9)], [f"TR-{n}" for n in range(5, 13)]],
        "public": {"flips": ["GO-9"]},
        "title": "Enter the cards turned up",
        "taps": {"The cards turned up, in order": ["Go 9"]},
        "labels": lambda card: f"{dict(GO='Go', STOP='Stop', TR='Transfer')[card.split('-')[0]]} {card.split('-')[1]}",
    },
    "plus-minus": {
        "hands": [["A", "2"], ["3", "4"], ["5", "6"]],
        "public": {"face_up": [["7", "8"], ["9", "10"], ["J", "Q"]]},
        "title": "Enter the face-up cards",
        "taps": {"Ann’s face-up cards (2)": ["Seven", "Eight"], "Ben’s face-up cards (2)": ["Nine", "Ten"], "Cleo’s face-up cards (2)": ["Jack", "Queen"]},
        "labels": lambda card: {"A": "Ace", "2": "Two"}[card],
    },
}


def tap_named(scope, group_name: str, labels: list[str]) -> None:
    group = scope.get_by_role("group", name=group_name)
    for name in labels:
        group.get_by_role("button", name=f"Add {name}", exact=True).first.click()


def luck_plus_and_plus_minus_hands_are_their_own_size(browser) -> None:
    """The other two games that deal hands: a seat's phone asks for its own 8 Luck Plus cards or
    2 Plus & Minus cards, and the host enters only the cards turned up (Luck Plus) or each
    player's 2 face-up cards (Plus & Minus); the deal then holds each hand as entered."""
    names = ["Ann", "Ben", "Cleo"]
    for game, plan in OTHER_GAMES.items():
        created = api("POST", "/v1/matches", {"game": game, "seats": [{"name": name} for name in names], "randomness": "table"})
        match_id = created["match"]["id"]
        tokens = {seat["seat"]: seat["token"] for seat in created["seat_tokens"]}
        # Ben and Cleo enter theirs from their own phones (here through the API).
        for seat in (1, 2):
            answer = api("PUT", f"/v1/matches/{match_id}/hands/{seat}", {"cards": plan["hands"][seat]}, token=tokens[seat])
            assert answer["mine"] == plan["hands"][seat], answer
        ann = new_phone(browser, f"hands-{game}-seat")
        ann.goto(f"{BASE}/#match={match_id}&token={tokens[0]}")
        expect(turn(ann)).to_have_text("Your hand, Ann: once the cards are dealt, tap yours in below.")
        size = len(plan["hands"][0])
        form = ann.get_by_role("form", name="Your hand")
        tap_named(form, f"Your cards ({size})", [plan["labels"](card) for card in plan["hands"][0]])
        expect(form).to_contain_text(f"{size} of {size} tapped")
        expect(form.get_by_role("group", name=re.compile("’s |turned up"))).to_have_count(0)
        form.get_by_role("button", name="This is my hand").click()
        expect(ann.get_by_role("region", name="Your hand is in").get_by_role("img")).to_have_count(size)

        host = new_phone(browser, f"hands-{game}-host")
        host.goto(f"{BASE}/#watch")
        expect(host.get_by_role("heading", level=1)).to_have_text("Watch a match")
        host.evaluate(
            "([match, token]) => localStorage.setItem('referee.hosted', JSON.stringify({[match.id]: {token, game: match.game, players: match.seats.map((s) => s.name), invites: [], created: match.created_at}}))",
            [created["match"], created["owner_token"]],
        )
        host.goto(f"{BASE}/#match={match_id}")
        expect(host.locator("p.hands-entered")).to_have_text("Hands entered: Ann ✓, Ben ✓, Cleo ✓. Every hand is in.")
        public = host.get_by_role("form", name=plan["title"])
        expect(public.get_by_role("group", name=re.compile("’s cards"))).to_have_count(0)
        for group, labels in plan["taps"].items():
            tap_named(public, group, labels)
        check(host, f"hands-{game}-host")
        public.get_by_role("button", name="Report the deal").click()
        expect(public).to_have_count(0)
        first = api("GET", f"/v1/matches/{match_id}/log?after=0&limit=10", token=created["owner_token"])["entries"][0]["chance"]
        assert first["hands"] == plan["hands"], first
        for key, value in plan["public"].items():
            assert first[key] == value, first
        expect(ann.get_by_role("region", name="Your hand is in")).to_have_count(0)
        ann.context.close()
        host.context.close()


STEPS = [
    each_player_taps_in_their_own_hand_and_the_host_only_the_card_turned_up,
    luck_plus_and_plus_minus_hands_are_their_own_size,
]
