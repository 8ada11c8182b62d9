"""Plays every game through the Python client generated from openapi/openapi.json.

Run by `.ci/clients` against a freshly started service: `python play.py http://127.0.0.1:PORT`.
Every response is read through the generated models and narrowed with `isinstance`, so mypy
checks each field read against the spec; a wrong answer stops the program with a message.
"""

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import NoReturn, Protocol, TypeVar
from uuid import UUID

from referee_client import AuthenticatedClient, Client
from referee_client.types import UNSET, Unset
from referee_client.api.games import get_game
from referee_client.api.history import (
    export_everything,
    import_bgstats,
    leaderboard,
    player_history,
    player_stats,
)
from referee_client.api.households import bring_in, create_household
from referee_client.api.lucky_dice import lucky_dice_tally
from referee_client.api.matches import (
    correct_chance,
    create_match,
    get_log,
    get_match,
    get_result,
    list_matches,
    submit_chance,
    submit_move,
    take_back,
)
from referee_client.api.ratings import head_to_head, player_ratings, rating_board, rating_history
from referee_client.api.sheets import (
    append_entry,
    create_sheet,
    finish_sheet,
    get_sheet,
    remove_last_round,
    rename_sheet_player,
)
from referee_client.models import (
    AppendEntry,
    BgStatsFile,
    BgStatsImport,
    BringIn,
    BroughtIn,
    CorrectChance,
    CreatedHousehold,
    CreateHousehold,
    FinishSheet,
    GameKind,
    HeadToHead,
    HistoryLine,
    ImportReport,
    LeaderboardRow,
    LuckPlusBonusMove,
    LuckPlusChanceKind,
    LuckPlusChanceView,
    LuckPlusCreatedMatch,
    LuckPlusCreateMatch,
    LuckPlusDealChance,
    LuckPlusDealChanceKind,
    LuckPlusDrawChance,
    LuckPlusDrawChanceKind,
    LuckPlusDrawMove,
    LuckPlusGameEntry,
    LuckPlusKeepMove,
    LuckPlusLuckPlusMove,
    LuckPlusMatchDetail,
    LuckPlusPlayMove,
    LuckPlusRollChance,
    LuckPlusRollChanceKind,
    LuckPlusRollMove,
    LuckPlusSlug,
    LuckPlusTransferMove,
    LuckyDiceCoastersChance,
    LuckyDiceCoastersChanceKind,
    LuckyDiceCoastersPendingChance,
    LuckyDiceCreatedMatch,
    LuckyDiceCreateMatch,
    LuckyDiceLuckySymbolChance,
    LuckyDiceLuckySymbolChanceKind,
    LuckyDiceLuckySymbolPendingChance,
    LuckyDiceMatchDetail,
    LuckyDiceRollChance,
    LuckyDiceRollChanceKind,
    LuckyDiceRollPendingChance,
    LuckyDiceSlug,
    LuckyDiceSymbol,
    LuckyDiceTally,
    LuckyDiceTallyReply,
    LuckyDiceTallyRequest,
    LuckyJackCreatedMatch,
    LuckyJackCreatedSheet,
    LuckyJackCreateMatch,
    LuckyJackCreateSheet,
    LuckyJackDealChance,
    LuckyJackDealChanceKind,
    LuckyJackDrawChance,
    LuckyJackDrawChanceKind,
    LuckyJackDrawMove,
    LuckyJackDrawMoveType,
    LuckyJackKeepMove,
    LuckyJackKeepMoveType,
    LuckyJackMatchDetail,
    LuckyJackMatchLog,
    LuckyJackMatchResult,
    LuckyJackMoveReply,
    LuckyJackOptions,
    LuckyJackOptionsRounds,
    LuckyJackSheetDetail,
    LuckyJackSlug,
    LuckyJackSymbol,
    LuckyJackTally,
    LuckyJackTallyJackpot,
    LuckyLuauCard,
    LuckyLuauChanceView,
    LuckyLuauCounts,
    LuckyLuauCreatedMatch,
    LuckyLuauCreateMatch,
    LuckyLuauDrawChance,
    LuckyLuauDrawChanceKind,
    LuckyLuauMatchDetail,
    LuckyLuauSlug,
    MatchKind,
    MatchPage,
    MatchStatus,
    NewSeat,
    PlayerHistoryFormat,
    PlayerRatings,
    PlayOutcome,
    PlayerStats,
    PlusMinusCard,
    PlusMinusChanceKind,
    PlusMinusChanceView,
    PlusMinusCreatedMatch,
    PlusMinusCreateMatch,
    PlusMinusDealChance,
    PlusMinusDealChanceKind,
    PlusMinusDrawChance,
    PlusMinusDrawChanceKind,
    PlusMinusMatchDetail,
    PlusMinusSlug,
    Problem,
    RandomnessMode,
    RatingBoard,
    RatingHistory,
    RatingPoint,
    RatingRow,
    RemoveLastRound,
    RenameSheetPlayer,
    SeatRenamed,
    SeatToken,
    SheetEntryKind,
    SkillRating,
    SubmitChance,
    SubmitMove,
    TakeBack,
)

# Enough requests for any round these policies play; a loop that needs more is a bug to report.
MAX_STEPS = 3000

Answer = TypeVar("Answer")


def expect(answer: object, kind: type[Answer]) -> Answer:
    """The answer as `kind`, or stop with what came instead (a `Problem` names its rule)."""
    if not isinstance(answer, kind):
        if isinstance(answer, Problem):
            sys.exit(f"expected {kind.__name__}, got {answer.status} {answer.code}: {answer.detail}")
        sys.exit(f"expected {kind.__name__}, got {answer!r}")
    return answer


def refused(answer: Problem | None) -> NoReturn:
    if answer is None:
        sys.exit("the service gave no answer")
    sys.exit(f"refused: {answer.status} {answer.code}: {answer.detail}")


def check(condition: bool, message: str) -> None:
    if not condition:
        sys.exit(f"check failed: {message}")


@dataclass
class Service:
    base_url: str

    def anonymous(self) -> Client:
        return Client(base_url=self.base_url, raise_on_unexpected_status=True)

    def holding(self, token: str) -> AuthenticatedClient:
        return AuthenticatedClient(base_url=self.base_url, token=token, raise_on_unexpected_status=True)


@dataclass
class Table:
    """A hosted match and the clients that act in it: the owner and one per seat."""

    match_id: UUID
    owner: AuthenticatedClient
    seats: dict[int, AuthenticatedClient]

    @staticmethod
    def of(service: Service, match_id: UUID, owner_token: str, seat_tokens: list[SeatToken]) -> "Table":
        seats = {token.seat: service.holding(token.token) for token in seat_tokens}
        return Table(match_id, service.holding(owner_token), seats)


def seats(*names: str) -> list[NewSeat]:
    return [NewSeat(name=name) for name in names]


def play_lucky_jack(service: Service, names: list[str]) -> None:
    """A server-dealt match to its end: each turn the acting seat reads its own view and sends
    its first legal move with the version it saw. `max_turns_per_round` bounds every round."""
    options = LuckyJackOptions(rounds=LuckyJackOptionsRounds.VALUE_3, max_turns_per_round=60)
    body = LuckyJackCreateMatch(game=LuckyJackSlug.LUCKY_JACK, seats=seats(*names), options=options)
    created = expect(create_match.sync(client=service.anonymous(), body=body), LuckyJackCreatedMatch)
    check(created.match.randomness == RandomnessMode.SERVER, "a match is server-dealt by default")
    check(isinstance(created.match.seed_sha256, str), "a server-dealt match publishes its seed's hash")
    table = Table.of(service, created.match.id, created.owner_token, created.seat_tokens)

    spectator = service.anonymous()
    moves = 0
    for _ in range(MAX_STEPS):
        public = expect(get_match.sync(table.match_id, client=spectator), LuckyJackMatchDetail)
        if public.status == MatchStatus.FINISHED:
            break
        seat = public.to_act[0]
        mine = expect(get_match.sync(table.match_id, client=table.seats[seat]), LuckyJackMatchDetail)
        check(mine.view.hands[seat] is not None, "a seat sees its own hand")
        body_move = SubmitMove(move=mine.view.legal_moves[0], expected_version=mine.version)
        if moves == 0:
            # A retry with the same Idempotency-Key gets the first answer and stores nothing again.
            key = f"first-move-{table.match_id}"
            reply = submit_move.sync(
                table.match_id, client=table.seats[seat], body=body_move, idempotency_key=key
            )
            retry = submit_move.sync(
                table.match_id, client=table.seats[seat], body=body_move, idempotency_key=key
            )
            check(
                expect(retry, LuckyJackMoveReply).version == expect(reply, LuckyJackMoveReply).version,
                "a retried move counts once",
            )
        else:
            reply = submit_move.sync(table.match_id, client=table.seats[seat], body=body_move)
        check(expect(reply, LuckyJackMoveReply).version > mine.version, "a move moves the version on")
        moves += 1
    else:
        sys.exit(f"Lucky Jack did not end in {MAX_STEPS} moves")

    # A move on a version that has moved on is refused with a typed problem.
    stale = submit_move.sync(
        table.match_id,
        client=table.seats[0],
        body=SubmitMove(move=mine.view.legal_moves[0], expected_version=0),
    )
    check(isinstance(stale, Problem) and stale.status in (409, 422), "a stale or finished move is refused")

    result = expect(get_result.sync(table.match_id, client=spectator), LuckyJackMatchResult)
    check(result.over and result.status == MatchStatus.FINISHED, "the result is final")
    check(len(result.breakdown.rounds) == 3, "three rounds were scored")
    check(len(result.winners) >= 1, "a finished match has a winner")
    check(all(winner in names for winner in result.winners), "the winners sat at the table")
    log = expect(get_log.sync(table.match_id, client=spectator), LuckyJackMatchLog)
    check(len(log.entries) >= moves, "the log holds every move")
    print(f"lucky-jack: {moves} moves, winners {result.winners}, totals {result.standings.totals}")


def mend_a_table_match(service: Service, names: list[str]) -> None:
    """A Lucky Jack match at a real table, mended as a family would: the owner corrects a card
    mistyped in the deal, Ben takes back the card he kept by mistake, and a take-back the policy
    refuses comes back as a typed problem naming its condition."""
    body = LuckyJackCreateMatch(
        game=LuckyJackSlug.LUCKY_JACK, seats=seats(*names), randomness=RandomnessMode.TABLE
    )
    created = expect(create_match.sync(client=service.anonymous(), body=body), LuckyJackCreatedMatch)
    table = Table.of(service, created.match.id, created.owner_token, created.seat_tokens)
    s = LuckyJackSymbol
    ann = [s.LEMON, s.CHERRY, s.GRAPE, s.CLOVER, s.BELL, s.SEVEN, s.JACK]
    ben = [s.LEMON, s.LEMON, s.LEMON, s.GRAPE, s.CLOVER, s.SEVEN, s.SEVEN]

    def deal(ben_hand: list[LuckyJackSymbol]) -> LuckyJackDealChance:
        return LuckyJackDealChance(kind=LuckyJackDealChanceKind.DEAL, hands=[ann, ben_hand], flip=s.CLOVER)

    def drew(card: LuckyJackSymbol) -> LuckyJackDrawChance:
        return LuckyJackDrawChance(kind=LuckyJackDrawChanceKind.DRAW, cards=[card])

    def mended(answer: object) -> LuckyJackMoveReply:
        return expect(answer, LuckyJackMoveReply)

    mistyped = ben[:6] + [s.BELL]
    submit_chance.sync(table.match_id, client=table.owner, body=SubmitChance(outcome=deal(mistyped)))
    fixed = mended(
        correct_chance.sync(
            table.match_id, client=table.owner, body=CorrectChance(outcome=deal(ben), expected_version=1)
        )
    )
    check(fixed.version == 2 and fixed.entries[0].corrects == 1, "the correction names the deal it replaces")
    draw_move = LuckyJackDrawMove(type_=LuckyJackDrawMoveType.DRAW)
    mended(submit_move.sync(table.match_id, client=table.seats[1], body=SubmitMove(move=draw_move)))
    submit_chance.sync(table.match_id, client=table.seats[1], body=SubmitChance(outcome=drew(s.JACK)))
    keep = LuckyJackKeepMove(type_=LuckyJackKeepMoveType.KEEP)
    mended(submit_move.sync(table.match_id, client=table.seats[1], body=SubmitMove(move=keep)))
    back = mended(take_back.sync(table.match_id, client=table.seats[1], body=TakeBack(expected_version=5)))
    check(back.entries[0].takes_back == 5, "the take-back names the keep")
    check(back.view.pending == s.JACK, "the drawn jack is pending again")
    refused_back = take_back.sync(table.match_id, client=table.seats[1], body=TakeBack())
    check(
        isinstance(refused_back, Problem) and refused_back.code == "chance_since",
        "a draw whose card was reported stands",
    )
    log = expect(get_log.sync(table.match_id, client=table.owner), LuckyJackMatchLog)
    check(len(log.entries) == 6, "the log keeps the mistakes and their mending")
    print(f"mending: deal corrected, keep taken back, {len(log.entries)} entries kept")


TableMatch = TypeVar("TableMatch", bound="TableState")


class TableState(Protocol):
    """What the round loop reads of any game's match detail."""

    @property
    def version(self) -> int: ...

    @property
    def chance_pending(self) -> bool: ...

    @property
    def to_act(self) -> list[int]: ...


def play_table_round(
    table: Table,
    read: Callable[[AuthenticatedClient], TableMatch],
    report: Callable[[TableMatch], SubmitChance],
    choose: Callable[[TableMatch], SubmitMove],
    round_over: Callable[[TableMatch], bool],
) -> TableMatch:
    """Plays until `round_over`: the owner reports each chance outcome from its full view, and
    otherwise the first seat to act sends a move chosen from its own view."""
    for _ in range(MAX_STEPS):
        full = read(table.owner)
        if round_over(full):
            return full
        if full.chance_pending:
            answer = submit_chance.sync(table.match_id, client=table.owner, body=report(full))
        else:
            seat = full.to_act[0]
            mine = read(table.seats[seat])
            answer = submit_move.sync(table.match_id, client=table.seats[seat], body=choose(mine))
        if answer is None or isinstance(answer, Problem):
            refused(answer)
    sys.exit(f"the round did not end in {MAX_STEPS} steps")


def play_lucky_dice(service: Service, names: list[str]) -> None:
    body = LuckyDiceCreateMatch(
        game=LuckyDiceSlug.LUCKY_DICE, seats=seats(*names), randomness=RandomnessMode.TABLE
    )
    created = expect(create_match.sync(client=service.anonymous(), body=body), LuckyDiceCreatedMatch)
    table = Table.of(service, created.match.id, created.owner_token, created.seat_tokens)

    def read(client: AuthenticatedClient) -> LuckyDiceMatchDetail:
        return expect(get_match.sync(table.match_id, client=client), LuckyDiceMatchDetail)

    def report(match: LuckyDiceMatchDetail) -> SubmitChance:
        pending = match.view.chance
        if isinstance(pending, LuckyDiceCoastersPendingChance):
            pile = match.view.pile
            check(isinstance(pile, list), "the owner sees the coaster pile")
            drawn = pile[: len(pending.seats)] if isinstance(pile, list) else []
            coasters = LuckyDiceCoastersChance(kind=LuckyDiceCoastersChanceKind.COASTERS, coasters=drawn)
            return SubmitChance(outcome=coasters, expected_version=match.version)
        if isinstance(pending, LuckyDiceLuckySymbolPendingChance):
            symbol = LuckyDiceLuckySymbolChance(
                kind=LuckyDiceLuckySymbolChanceKind.LUCKY_SYMBOL, symbol=LuckyDiceSymbol.CAT
            )
            return SubmitChance(outcome=symbol, expected_version=match.version)
        if isinstance(pending, LuckyDiceRollPendingChance):
            # Every die shows the round's lucky symbol and goes to the tray, so pools empty fast.
            lucky = match.view.lucky_symbol
            face = lucky if isinstance(lucky, LuckyDiceSymbol) else LuckyDiceSymbol.CAT
            roll = LuckyDiceRollChance(kind=LuckyDiceRollChanceKind.ROLL, faces=[face] * pending.dice)
            return SubmitChance(outcome=roll, expected_version=match.version)
        sys.exit(f"lucky-dice: no chance outcome is pending: {pending!r}")

    def choose(match: LuckyDiceMatchDetail) -> SubmitMove:
        return SubmitMove(move=match.view.legal_moves[0], expected_version=match.version)

    end = play_table_round(table, read, report, choose, lambda match: len(match.view.results) >= 1)
    check(end.view.round_ == 2, "lucky-dice: the second round is next")
    check(sum(end.view.totals) >= 1, "lucky-dice: someone won a coaster")
    # The same round, written down at a physical table, scores the same through the stateless tally.
    described = LuckyDiceTallyRequest(
        players=len(names), rounds=[LuckyDiceTally(emptied=result.emptied) for result in end.view.results]
    )
    tally = expect(lucky_dice_tally.sync(client=service.anonymous(), body=described), LuckyDiceTallyReply)
    check(tally.standings.totals == end.view.totals, "lucky-dice: the tally agrees with the hosted round")
    print(f"lucky-dice: round 1 over, coasters won {end.view.totals}")


LUCK_PLUS_CARD = "LP"
LuckPlusMove = (
    LuckPlusBonusMove
    | LuckPlusDrawMove
    | LuckPlusKeepMove
    | LuckPlusLuckPlusMove
    | LuckPlusPlayMove
    | LuckPlusRollMove
    | LuckPlusTransferMove
)


def friendly_dice(hand: list[str], rolls: int) -> list[int]:
    """Dice that the roller's numbered cards can match, so that hands shrink and the hand ends
    (a real table's dice are not so kind); other numbers when the hand has none."""
    numbers = sorted({int(card.split("-")[1]) for card in hand if card.startswith(("GO-", "STOP-"))})
    small = [number for number in numbers if number <= 6]
    varied = [rolls % 6 + 1, (rolls * 5 + 2) % 6 + 1]
    return (small + varied)[:2]


def luck_plus_preference(move: LuckPlusMove) -> int:
    """The play that lays the most cards, then anything but a draw, which only grows the hand."""
    if isinstance(move, LuckPlusPlayMove):
        return 100 + sum(len(group.cards) for group in move.groups)
    if isinstance(move, LuckPlusDrawMove):
        return 0
    return 1


def play_luck_plus(service: Service, names: list[str]) -> None:
    body = LuckPlusCreateMatch(
        game=LuckPlusSlug.LUCK_PLUS, seats=seats(*names), randomness=RandomnessMode.TABLE
    )
    created = expect(create_match.sync(client=service.anonymous(), body=body), LuckPlusCreatedMatch)
    table = Table.of(service, created.match.id, created.owner_token, created.seat_tokens)
    rolls = 0

    def read(client: AuthenticatedClient) -> LuckPlusMatchDetail:
        return expect(get_match.sync(table.match_id, client=client), LuckPlusMatchDetail)

    def report(match: LuckPlusMatchDetail) -> SubmitChance:
        nonlocal rolls
        chance = match.view.chance
        if not isinstance(chance, LuckPlusChanceView):
            sys.exit("luck-plus: no chance outcome is pending")
        pile = chance.pile if isinstance(chance.pile, list) else []
        if chance.kind == LuckPlusChanceKind.DEAL:
            # The match pile's first card may not be a LUCK PLUS card; the hands come after it.
            flip = next(card for card in pile if card != LUCK_PLUS_CARD)
            rest = list(pile)
            rest.remove(flip)
            hands = [rest[8 * seat : 8 * seat + 8] for seat in range(match.view.players)]
            deal = LuckPlusDealChance(kind=LuckPlusDealChanceKind.DEAL, hands=hands, flips=[flip])
            return SubmitChance(outcome=deal, expected_version=match.version)
        if chance.kind == LuckPlusChanceKind.ROLL:
            rolls += 1
            roller = chance.seat if isinstance(chance.seat, int) else match.view.turn
            roll = LuckPlusRollChance(
                kind=LuckPlusRollChanceKind.ROLL, dice=friendly_dice(match.view.hands[roller], rolls)
            )
            return SubmitChance(outcome=roll, expected_version=match.version)
        draw = LuckPlusDrawChance(kind=LuckPlusDrawChanceKind.DRAW, card=pile[0])
        return SubmitChance(outcome=draw, expected_version=match.version)

    def choose(match: LuckPlusMatchDetail) -> SubmitMove:
        return SubmitMove(
            move=max(match.view.legal_moves, key=luck_plus_preference), expected_version=match.version
        )

    end = play_table_round(table, read, report, choose, lambda match: len(match.view.results) >= 1)
    hand = end.view.results[0]
    check(len(hand.out) >= 1, "luck-plus: someone went out")
    print(f"luck-plus: hand 1 over, totals {end.view.totals}")


def play_plus_minus(service: Service, names: list[str]) -> None:
    body = PlusMinusCreateMatch(
        game=PlusMinusSlug.PLUS_MINUS, seats=seats(*names), randomness=RandomnessMode.TABLE
    )
    created = expect(create_match.sync(client=service.anonymous(), body=body), PlusMinusCreatedMatch)
    table = Table.of(service, created.match.id, created.owner_token, created.seat_tokens)

    def read(client: AuthenticatedClient) -> PlusMinusMatchDetail:
        return expect(get_match.sync(table.match_id, client=client), PlusMinusMatchDetail)

    def report(match: PlusMinusMatchDetail) -> SubmitChance:
        chance = match.view.chance
        if not isinstance(chance, PlusMinusChanceView):
            sys.exit("plus-minus: no chance outcome is pending")
        pile: list[PlusMinusCard] = chance.pile if isinstance(chance.pile, list) else []
        if chance.kind == PlusMinusChanceKind.DEAL:
            players = match.view.players
            hands = [pile[2 * seat : 2 * seat + 2] for seat in range(players)]
            face_up = [pile[2 * (players + seat) : 2 * (players + seat) + 2] for seat in range(players)]
            deal = PlusMinusDealChance(kind=PlusMinusDealChanceKind.DEAL, hands=hands, face_up=face_up)
            return SubmitChance(outcome=deal, expected_version=match.version)
        draw = PlusMinusDrawChance(kind=PlusMinusDrawChanceKind.DRAW, cards=pile[: chance.count])
        return SubmitChance(outcome=draw, expected_version=match.version)

    def choose(match: PlusMinusMatchDetail) -> SubmitMove:
        return SubmitMove(move=match.view.legal_moves[0], expected_version=match.version)

    end = play_table_round(table, read, report, choose, lambda match: len(match.view.results) >= 1)
    scored = end.view.results[0]
    check(len(scored.seats) == len(names), "plus-minus: every seat is scored")
    check(end.view.totals == [seat.score for seat in scored.seats], "plus-minus: totals are round 1's scores")
    print(f"plus-minus: round 1 over, totals {end.view.totals}")


def luau_cards(counts: LuckyLuauCounts) -> list[tuple[LuckyLuauCard, int]]:
    return [
        (LuckyLuauCard.YELLOW, counts.yellow),
        (LuckyLuauCard.RED, counts.red),
        (LuckyLuauCard.BLUE, counts.blue),
        (LuckyLuauCard.PINK, counts.pink),
        (LuckyLuauCard.PURPLE, counts.purple),
        (LuckyLuauCard.ORANGE, counts.orange),
        (LuckyLuauCard.GREEN, counts.green),
        (LuckyLuauCard.RAINBOW, counts.rainbow),
        (LuckyLuauCard.TI, counts.ti),
        (LuckyLuauCard.MEGA, counts.mega),
        (LuckyLuauCard.KUKUI, counts.kukui),
    ]


def play_lucky_luau(service: Service, names: list[str]) -> None:
    """Lucky Luau is one round: it is played until the centre is empty and every seat finished."""
    body = LuckyLuauCreateMatch(
        game=LuckyLuauSlug.LUCKY_LUAU, seats=seats(*names), randomness=RandomnessMode.TABLE
    )
    created = expect(create_match.sync(client=service.anonymous(), body=body), LuckyLuauCreatedMatch)
    table = Table.of(service, created.match.id, created.owner_token, created.seat_tokens)

    def read(client: AuthenticatedClient) -> LuckyLuauMatchDetail:
        return expect(get_match.sync(table.match_id, client=client), LuckyLuauMatchDetail)

    def report(match: LuckyLuauMatchDetail) -> SubmitChance:
        chance = match.view.chance
        if not isinstance(chance, LuckyLuauChanceView) or not isinstance(chance.pile, LuckyLuauCounts):
            sys.exit("lucky-luau: the owner sees no face-down pile to draw from")
        card = next(card for card, count in luau_cards(chance.pile) if count > 0)
        draw = LuckyLuauDrawChance(kind=LuckyLuauDrawChanceKind.DRAW, card=card)
        return SubmitChance(outcome=draw, expected_version=match.version)

    def choose(match: LuckyLuauMatchDetail) -> SubmitMove:
        return SubmitMove(move=match.view.legal_moves[0], expected_version=match.version)

    end = play_table_round(table, read, report, choose, lambda match: match.status == MatchStatus.FINISHED)
    check(len(end.standings.winners) >= 1, "lucky-luau: a finished match has a winner")
    print(f"lucky-luau: over, totals {end.standings.totals}")


def keep_score_sheet(service: Service, names: list[str]) -> None:
    """A Lucky Jack score sheet of three rounds, one of them corrected."""
    body = LuckyJackCreateSheet(
        game=LuckyJackSlug.LUCKY_JACK,
        players=seats(*names),
        options=LuckyJackOptions(rounds=LuckyJackOptionsRounds.VALUE_3),
    )
    created = expect(create_sheet.sync(client=service.anonymous(), body=body), LuckyJackCreatedSheet)
    sheet_id = created.sheet.id
    owner = service.holding(created.owner_token)

    def enter(tally: LuckyJackTally, corrects: int | None = None) -> LuckyJackSheetDetail:
        entry = AppendEntry(tally=tally, corrects=corrects)
        return expect(append_entry.sync(sheet_id, client=owner, body=entry), LuckyJackSheetDetail)

    def jackpot(seat: int, symbol: LuckyJackSymbol, size: int) -> LuckyJackTally:
        return LuckyJackTally(jackpot=LuckyJackTallyJackpot(seat=seat, symbol=symbol, size=size))

    first = enter(jackpot(2, LuckyJackSymbol.JACK, 4))
    enter(LuckyJackTally(jackpot=None))
    corrected = enter(jackpot(2, LuckyJackSymbol.BELL, 4), corrects=first.entries[0].seq)
    check(corrected.standings.totals[2] < first.standings.totals[2], "the correction lowered the total")
    check(corrected.entries[0].superseded_by == corrected.entries[2].seq, "the old entry is superseded")
    last = enter(jackpot(0, LuckyJackSymbol.SEVEN, 3))
    check(last.status == MatchStatus.FINISHED and last.winners == [names[2]], "three rounds end the sheet")

    read = expect(get_sheet.sync(sheet_id, client=service.anonymous()), LuckyJackSheetDetail)
    check([round_.entry for round_ in read.rounds] == [3, 2, 4], "rounds name their latest entries")
    print(
        f"sheet: totals {first.standings.totals} corrected to {corrected.standings.totals}, final {read.standings.totals}"
    )
    mend_score_sheet(service, names[1])


def finished_sheet(service: Service, players: list[str], household_key: str | Unset = UNSET) -> UUID:
    """A Lucky Jack sheet of `players` played to its end (three rounds, the first seat's
    jackpots), made in the household of `household_key`, or in the public space: its id."""
    body = LuckyJackCreateSheet(game=LuckyJackSlug.LUCKY_JACK, players=seats(*players))
    made = create_sheet.sync(client=service.anonymous(), body=body, household_key=household_key)
    created = expect(made, LuckyJackCreatedSheet)
    owner = service.holding(created.owner_token)
    jackpot = LuckyJackTally(jackpot=LuckyJackTallyJackpot(seat=0, symbol=LuckyJackSymbol.BELL, size=4))
    for _ in range(3):
        entry = append_entry.sync(created.sheet.id, client=owner, body=AppendEntry(tally=jackpot))
        expect(entry, LuckyJackSheetDetail)
    return created.sheet.id


def keep_house(service: Service, family: list[str]) -> None:
    """A family's household: a public sheet of two of its players brought in by name, then a
    sheet kept in it; neither is there without one of its keys, and its players are its own."""
    made = expect(create_household.sync(client=service.anonymous(), body=CreateHousehold(name="The Py family")), CreatedHousehold)
    owner, reader = made.owner_key, made.reader_key
    before = finished_sheet(service, family)
    asked = BringIn(players=family)
    report = expect(bring_in.sync(made.household.id, client=service.anonymous(), body=asked, household_key=owner), BroughtIn)
    check(report.moved == 1 and report.stayed == 0, "the public sheet moved into the household")
    kept = finished_sheet(service, family, owner)
    for sheet_id in (before, kept):
        outside = get_sheet.sync(sheet_id, client=service.anonymous())
        check(isinstance(outside, Problem) and outside.status == 404, "a household's sheet is not there without its key")
        expect(get_sheet.sync(sheet_id, client=service.anonymous(), household_key=reader), LuckyJackSheetDetail)
    inside = expect(player_stats.sync(family[0], client=service.anonymous(), household_key=reader), PlayerStats)
    publicly = expect(player_stats.sync(family[0], client=service.anonymous()), PlayerStats)
    check(inside.overall.played == 2 and publicly.overall.played == 0, "the household's player is its own")
    print(f"household: {report.moved} sheet brought in, {inside.overall.played} played by {family[0]} inside, 0 outside")


def mend_score_sheet(service: Service, player: str) -> None:
    """A sheet mended: a round typed by mistake taken away, a player renamed, and the sheet
    finished early when the little one fell asleep."""
    body = LuckyJackCreateSheet(game=LuckyJackSlug.LUCKY_JACK, players=seats(player, "Py Dee"))
    created = expect(create_sheet.sync(client=service.anonymous(), body=body), LuckyJackCreatedSheet)
    sheet_id = created.sheet.id
    owner = service.holding(created.owner_token)
    seven = LuckyJackTally(jackpot=LuckyJackTallyJackpot(seat=0, symbol=LuckyJackSymbol.SEVEN, size=3))
    for tally in (seven, LuckyJackTally(jackpot=None)):
        expect(append_entry.sync(sheet_id, client=owner, body=AppendEntry(tally=tally)), LuckyJackSheetDetail)

    removal = RemoveLastRound(note="typed twice", expected_version=2)
    removed = expect(remove_last_round.sync(sheet_id, client=owner, body=removal), LuckyJackSheetDetail)
    check(len(removed.rounds) == 1 and removed.version == 3, "the last round is taken away")
    last = removed.entries[-1]
    check(last.kind == SheetEntryKind.REMOVAL and last.corrects == 2, "the removal is an entry")

    rename = RenameSheetPlayer(name="Py Dora", expected_version=removed.version)
    renamed = expect(rename_sheet_player.sync(sheet_id, 1, client=owner, body=rename), LuckyJackSheetDetail)
    record = renamed.entries[-1].renamed
    check(isinstance(record, SeatRenamed) and record.new_name == "Py Dora", "the rename is an entry")
    check(renamed.players[1].name == "Py Dora", "the seat has its new name")

    finish = FinishSheet(expected_version=renamed.version, note="bedtime")
    done = expect(finish_sheet.sync(sheet_id, client=owner, body=finish), LuckyJackSheetDetail)
    check(done.status == MatchStatus.FINISHED and done.finished_early, "the sheet is finished early")
    check(done.winners == [player], "the standings so far name the winner")
    print(f"mended sheet: {len(done.rounds)} round, {len(done.entries)} entries, won by {done.winners[0]}")


def read_history(service: Service, player: str, sheet_winner: str) -> None:
    anonymous = service.anonymous()
    page = expect(list_matches.sync(client=anonymous, player=player), MatchPage)
    check(page.total >= 6, "every match and the sheet are listed")
    kinds = {item.kind for item in page.items}
    check(kinds == {MatchKind.HOSTED, MatchKind.SHEET}, "hosted matches and sheets share one history")
    # The history is NDJSON: one `HistoryLine` per line, read as text and parsed line by line.
    ndjson = expect(player_history.sync(player, client=anonymous, format_=PlayerHistoryFormat.NDJSON), str)
    lines = [HistoryLine.from_dict(json.loads(line)) for line in ndjson.splitlines()]
    check(len(lines) == page.total, "the player's history has a line per listed match")
    check(all(line.players[line.seat] == line.player for line in lines), "each line names the player's seat")
    stats = expect(player_stats.sync(player, client=anonymous), PlayerStats)
    jack = [record for record in stats.games if record.game == GameKind.LUCKY_JACK]
    check(len(jack) == 1 and jack[0].played == 2, "the Lucky Jack match and sheet count as played")
    board = leaderboard.sync(GameKind.LUCKY_JACK, client=anonymous, limit=100)
    check(isinstance(board, list), "the leaderboard is a list")
    rows = [row for row in board if isinstance(row, LeaderboardRow)] if isinstance(board, list) else []
    check(any(row.player == sheet_winner and row.won >= 1 for row in rows), "the sheet's winner is ranked")
    catalogue = expect(get_game.sync(GameKind.LUCK_PLUS, client=anonymous), LuckPlusGameEntry)
    check(catalogue.min_players <= 3 <= catalogue.max_players, "Luck Plus seats three")
    check(catalogue.default_options.dealer == 0, "Luck Plus lists its default options")
    print(f"history: {page.total} matches for {player}; {len(rows)} on the Lucky Jack leaderboard")


def skill(rating: SkillRating) -> tuple[float, float, float]:
    return (rating.mu, rating.sigma, rating.rating)


def read_ratings(service: Service, player: str, opponent: str) -> None:
    """The ratings of a player who finished matches and sheets above, their history, the game's
    board page by page, a head-to-head with a player they sat with, and the whole record
    exported as a BG Stats file and imported again: every play is already here."""
    anonymous = service.anonymous()
    ratings = expect(player_ratings.sync(player, client=anonymous), PlayerRatings)
    rated = [record for record in ratings.games if record.rated >= 1]
    check(len(rated) >= 1, "the player has a rated game")
    record = next((record for record in rated if record.game == GameKind.LUCKY_JACK), rated[0])
    current = record.rating
    check(abs(current.rating - (current.mu - 3 * current.sigma)) <= 1e-9, "the rating is mu - 3 sigma")
    check(record.place >= 1 and record.place <= record.players, "the player has a place on the board")

    points: list[RatingPoint] = []
    cursor: str | None = None
    for _ in range(MAX_STEPS):
        if cursor is None:
            history = rating_history.sync(player, record.game, client=anonymous)
        else:
            history = rating_history.sync(player, record.game, client=anonymous, cursor=cursor)
        page = expect(history, RatingHistory)
        points.extend(page.items)
        cursor = page.next_cursor if isinstance(page.next_cursor, str) else None
        if cursor is None:
            break
    check(len(points) == record.rated, "the history has a point per rated result")
    check(len(points) >= 1 and skill(points[-1].after) == skill(current), "the last point is the current rating")

    rows: list[RatingRow] = []
    board = expect(rating_board.sync(record.game, client=anonymous, limit=2), RatingBoard)
    rows.extend(board.items)
    if isinstance(board.next_cursor, str):
        following = rating_board.sync(record.game, client=anonymous, limit=2, cursor=board.next_cursor)
        rows.extend(expect(following, RatingBoard).items)
    check(len(rows) >= 1, "the rating board has rows")
    check(all(a.place <= b.place for a, b in zip(rows, rows[1:])), "places never go down the board")

    versus = expect(head_to_head.sync(player, opponent, client=anonymous), HeadToHead)
    shared = [game for game in versus.games if game.game == record.game]
    check(len(shared) == 1 and shared[0].played >= 1, "the two shared a rated table")
    together = shared[0]
    check(
        together.player_ahead + together.opponent_ahead + together.level == together.played,
        "each shared result is ahead, behind or level",
    )
    check(len(versus.items) >= 1, "their shared results are listed")

    # The export is streamed, but whole it is one BG Stats file: read it as one.
    exported = expect(export_everything.sync(client=anonymous), BgStatsFile)
    check(len(exported.plays) >= 1, "the export holds the finished results")
    # The import reads any BG Stats file leniently (its own schema): the export is one.
    upload = BgStatsImport.from_dict(exported.to_dict())
    report = expect(import_bgstats.sync(client=anonymous, body=upload), ImportReport)
    check(len(report.plays) == len(exported.plays), "the import reports every play")
    check(all(play.outcome == PlayOutcome.MATCHED for play in report.plays), "every play is already here")
    check(report.created == 0 and report.skipped == 0, "the import creates nothing")
    print(
        f"ratings: {player} {current.rating:.3f} in {record.game.value}, place {record.place} of {record.players}; "
        f"{len(rows)} on the board; {together.played} shared with {opponent}; "
        f"{report.matched} of {len(exported.plays)} exported plays matched"
    )


def main() -> None:
    if len(sys.argv) != 2:
        sys.exit("usage: play.py BASE_URL")
    service = Service(sys.argv[1].rstrip("/"))
    # Names of their own keep this program's history apart from other clients' on the same service.
    names = ["Py Ann", "Py Ben", "Py Cleo"]
    play_lucky_jack(service, names[:2])
    mend_a_table_match(service, names[:2])
    play_lucky_dice(service, names)
    play_luck_plus(service, names)
    play_plus_minus(service, names)
    play_lucky_luau(service, names[:2])
    keep_score_sheet(service, names)
    read_history(service, names[0], names[2])
    read_ratings(service, names[0], names[1])
    keep_house(service, ["Py Hana", "Py Ivo"])


if __name__ == "__main__":
    main()
