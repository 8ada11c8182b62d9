// Plays every game through the TypeScript client generated from openapi/openapi.json
// (openapi-typescript types, openapi-fetch requests). Run by `.ci/clients` against a freshly
// started service: `node dist/play.js http://127.0.0.1:PORT`. Answers are narrowed on their
// `game` discriminator, never cast, so `tsc` checks each field read against the spec.
import createClient from "openapi-fetch";
import type { components, paths } from "./src/api.js";

type Schemas = components["schemas"];
type Move = Schemas["SubmitMove"];
type Chance = Schemas["SubmitChance"];

// Enough requests for any round these policies play; a loop that needs more is a bug to report.
const MAX_STEPS = 3000;

const baseUrl = process.argv[2]?.replace(/\/$/, "");
if (baseUrl === undefined) {
  throw new Error("usage: node dist/play.js BASE_URL");
}
const api = createClient<paths>({ baseUrl });

/** The answer's body, or an error naming the status and the problem the service sent. */
function ok<T>(answer: { data?: T; error?: unknown; response: Response }, what: string): T {
  if (answer.data === undefined) {
    throw new Error(`${what}: ${answer.response.status} ${JSON.stringify(answer.error)}`);
  }
  return answer.data;
}

function check(condition: boolean, message: string): void {
  if (!condition) {
    throw new Error(`check failed: ${message}`);
  }
}

function wrongGame(expected: string, got: string): Error {
  return new Error(`expected a ${expected} document, got ${got}`);
}

function bearer(token: string | undefined): { authorization?: string } {
  return token === undefined ? {} : { authorization: `Bearer ${token}` };
}

/** A hosted match and the tokens that act in it: the owner's and one per seat. */
interface Table {
  id: string;
  owner: string;
  seats: Map<number, string>;
}

function tableOf(created: {
  match: { id: string };
  owner_token: string;
  seat_tokens: Schemas["SeatToken"][];
}): Table {
  const seats = new Map(created.seat_tokens.map((seat) => [seat.seat, seat.token]));
  return { id: created.match.id, owner: created.owner_token, seats };
}

function seatToken(table: Table, seat: number): string {
  const token = table.seats.get(seat);
  if (token === undefined) {
    throw new Error(`no token for seat ${seat}`);
  }
  return token;
}

async function readMatch(id: string, token?: string): Promise<Schemas["MatchDetail"]> {
  const answer = await api.GET("/v1/matches/{id}", { params: { path: { id } }, headers: bearer(token) });
  return ok(answer, "read match");
}

async function createMatch(body: Schemas["CreateMatch"]): Promise<Schemas["CreatedMatch"]> {
  return ok(await api.POST("/v1/matches", { body }), `create ${body.game}`);
}

async function move(
  table: Table,
  token: string,
  body: Move,
  idempotencyKey?: string,
): Promise<Schemas["MoveReply"]> {
  const answer = await api.POST("/v1/matches/{id}/moves", {
    params: {
      path: { id: table.id },
      header: idempotencyKey === undefined ? {} : { "Idempotency-Key": idempotencyKey },
    },
    headers: bearer(token),
    body,
  });
  return ok(answer, "move");
}

async function report(table: Table, body: Chance): Promise<Schemas["MoveReply"]> {
  const answer = await api.POST("/v1/matches/{id}/chance", {
    params: { path: { id: table.id } },
    headers: bearer(table.owner),
    body,
  });
  return ok(answer, "chance");
}

function newSeats(names: string[]): Schemas["NewSeat"][] {
  return names.map((name) => ({ name }));
}

/** A server-dealt match to its end: each turn the acting seat reads its own view and sends its
 * first legal move with the version it saw. `max_turns_per_round` bounds every round. */
async function playLuckyJack(names: string[]): Promise<void> {
  const created = await createMatch({
    game: "lucky-jack",
    seats: newSeats(names),
    options: { rounds: 3, max_turns_per_round: 60 },
  });
  if (created.game !== "lucky-jack") throw wrongGame("lucky-jack", created.game);
  check(created.match.randomness === "server", "a match is server-dealt by default");
  check(typeof created.match.seed_sha256 === "string", "a server-dealt match publishes its seed's hash");
  const table = tableOf(created);

  let moves = 0;
  let last: Schemas["LuckyJackMove"] | undefined;
  for (let step = 0; ; step++) {
    check(step < MAX_STEPS, `Lucky Jack ends within ${MAX_STEPS} moves`);
    const open = await readMatch(table.id);
    if (open.status === "finished") break;
    const seat = open.to_act[0];
    if (seat === undefined) throw new Error("an unfinished server-dealt match always has a seat to act");
    const token = seatToken(table, seat);
    const mine = await readMatch(table.id, token);
    if (mine.game !== "lucky-jack") throw wrongGame("lucky-jack", mine.game);
    check(mine.view.hands[seat] !== null, "a seat sees its own hand");
    last = mine.view.legal_moves[0];
    if (last === undefined) throw new Error("the seat to act has a legal move");
    const body = { move: last, expected_version: mine.version };
    let reply: Schemas["MoveReply"];
    if (moves === 0) {
      // A retry with the same Idempotency-Key gets the first answer and stores nothing again.
      const key = `first-move-${table.id}`;
      reply = await move(table, token, body, key);
      const retry = await move(table, token, body, key);
      check(retry.version === reply.version, "a retried move counts once");
    } else {
      reply = await move(table, token, body);
    }
    check(reply.version > mine.version, "a move moves the version on");
    moves++;
  }

  // A move on a version that has moved on is refused with a typed problem.
  if (last !== undefined) {
    const stale = await api.POST("/v1/matches/{id}/moves", {
      params: { path: { id: table.id } },
      headers: bearer(seatToken(table, 0)),
      body: { move: last, expected_version: 0 },
    });
    check(stale.error?.status === 409 || stale.error?.status === 422, "a stale or finished move is refused");
  }

  const result = ok(
    await api.GET("/v1/matches/{id}/result", { params: { path: { id: table.id } } }),
    "result",
  );
  if (result.game !== "lucky-jack") throw wrongGame("lucky-jack", result.game);
  check(result.over && result.status === "finished", "the result is final");
  check(result.breakdown.rounds.length === 3, "three rounds were scored");
  check(result.winners.length >= 1, "a finished match has a winner");
  check(
    result.winners.every((winner) => names.includes(winner)),
    "the winners sat at the table",
  );
  const log = ok(await api.GET("/v1/matches/{id}/log", { params: { path: { id: table.id } } }), "log");
  if (log.game !== "lucky-jack") throw wrongGame("lucky-jack", log.game);
  check(log.entries.length >= moves, "the log holds every move");
  console.log(
    `lucky-jack: ${moves} moves, winners ${result.winners.join(", ")}, totals ${result.standings.totals}`,
  );
}

/** A Lucky Jack match at a real table, mended as a family would: the owner corrects a card
 * mistyped in the deal, Ben takes back the card he kept by mistake, and a take-back the policy
 * refuses comes back as a problem naming its condition. */
async function mendATableMatch(names: string[]): Promise<void> {
  const table = tableOf(await createMatch({ game: "lucky-jack", seats: newSeats(names), randomness: "table" }));
  const ben = seatToken(table, 1);
  const ann: Schemas["LuckyJackSymbol"][] = ["lemon", "cherry", "grape", "clover", "bell", "seven", "jack"];
  const real: Schemas["LuckyJackSymbol"][] = ["lemon", "lemon", "lemon", "grape", "clover", "seven", "seven"];
  const deal = (hand: Schemas["LuckyJackSymbol"][]): Schemas["LuckyJackChance"] => ({
    kind: "deal",
    hands: [ann, hand],
    flip: "clover",
  });
  await report(table, { outcome: deal([...real.slice(0, 6), "bell"]) });
  const fixed = ok(
    await api.POST("/v1/matches/{id}/corrections", {
      params: { path: { id: table.id } },
      headers: bearer(table.owner),
      body: { outcome: deal(real), expected_version: 1 },
    }),
    "correction",
  );
  check(fixed.version === 2 && fixed.entries[0]?.corrects === 1, "the correction names the deal it replaces");
  await move(table, ben, { move: { type: "draw" } });
  const drawn = await api.POST("/v1/matches/{id}/chance", {
    params: { path: { id: table.id } },
    headers: bearer(ben),
    body: { outcome: { kind: "draw", cards: ["jack"] } },
  });
  ok(drawn, "Ben reports his draw");
  await move(table, ben, { move: { type: "keep" } });
  const takeBack = (body: Schemas["TakeBack"]) =>
    api.POST("/v1/matches/{id}/take-backs", {
      params: { path: { id: table.id } },
      headers: bearer(ben),
      body,
    });
  const back = ok(await takeBack({ expected_version: 5 }), "take-back");
  if (back.game !== "lucky-jack") throw wrongGame("lucky-jack", back.game);
  check(back.entries[0]?.takes_back === 5, "the take-back names the keep");
  check(back.view.pending === "jack", "the drawn jack is pending again");
  const refused = await takeBack({});
  check(refused.error?.code === "chance_since", "a draw whose card was reported stands");
  const log = ok(
    await api.GET("/v1/matches/{id}/log", { params: { path: { id: table.id } }, headers: bearer(table.owner) }),
    "log",
  );
  check(log.entries.length === 6, "the log keeps the mistakes and their mending");
  console.log(`mending: deal corrected, keep taken back, ${log.entries.length} entries kept`);
}

/** What the round loop reads of any game's match detail. */
interface TableState {
  version: number;
  chance_pending: boolean;
  to_act: number[];
}

/** Plays until `roundOver`: the owner reports each chance outcome from its full view, and
 * otherwise the first seat to act sends a move chosen from its own view. */
async function playTableRound<Detail extends TableState>(
  table: Table,
  read: (token: string) => Promise<Detail>,
  outcome: (match: Detail) => Chance,
  choose: (match: Detail) => Move,
  roundOver: (match: Detail) => boolean,
): Promise<Detail> {
  for (let step = 0; step < MAX_STEPS; step++) {
    const full = await read(table.owner);
    if (roundOver(full)) return full;
    if (full.chance_pending) {
      await report(table, outcome(full));
    } else {
      const seat = full.to_act[0];
      if (seat === undefined) throw new Error("no chance is pending and no seat may act");
      const token = seatToken(table, seat);
      await move(table, token, choose(await read(token)));
    }
  }
  throw new Error(`the round did not end in ${MAX_STEPS} steps`);
}

function firstMove<M>(moves: M[]): M {
  const first = moves[0];
  if (first === undefined) throw new Error("the seat to act has no legal move");
  return first;
}

async function playLuckyDice(names: string[]): Promise<void> {
  const created = await createMatch({ game: "lucky-dice", seats: newSeats(names), randomness: "table" });
  const table = tableOf(created);
  const read = async (token: string): Promise<Schemas["LuckyDiceMatchDetail"]> => {
    const match = await readMatch(table.id, token);
    if (match.game !== "lucky-dice") throw wrongGame("lucky-dice", match.game);
    return match;
  };
  const outcome = (match: Schemas["LuckyDiceMatchDetail"]): Chance => {
    const pending = match.view.chance;
    if (pending === null || pending === undefined)
      throw new Error("lucky-dice: no chance outcome is pending");
    switch (pending.kind) {
      case "coasters": {
        const pile = match.view.pile;
        if (pile === null || pile === undefined) throw new Error("the owner sees the coaster pile");
        return {
          outcome: { kind: "coasters", coasters: pile.slice(0, pending.seats.length) },
          expected_version: match.version,
        };
      }
      case "lucky_symbol":
        return { outcome: { kind: "lucky_symbol", symbol: "cat" }, expected_version: match.version };
      case "roll": {
        // Every die shows the round's lucky symbol and goes to the tray, so pools empty fast.
        const face = match.view.lucky_symbol ?? "cat";
        const faces = Array.from({ length: pending.dice }, () => face);
        return { outcome: { kind: "roll", faces }, expected_version: match.version };
      }
    }
  };
  const choose = (match: Schemas["LuckyDiceMatchDetail"]): Move => ({
    move: firstMove(match.view.legal_moves),
    expected_version: match.version,
  });
  const end = await playTableRound(table, read, outcome, choose, (match) => match.view.results.length >= 1);
  check(end.view.round === 2, "lucky-dice: the second round is next");
  check(end.view.totals.reduce((sum, total) => sum + total, 0) >= 1, "lucky-dice: someone won a coaster");
  // The same round, written down at a physical table, scores the same through the stateless tally.
  const described = {
    players: names.length,
    rounds: end.view.results.map((result) => ({ emptied: result.emptied })),
  };
  const tally = ok(await api.POST("/v1/games/lucky-dice/tally", { body: described }), "lucky-dice tally");
  check(
    tally.standings.totals.join() === end.view.totals.join(),
    "lucky-dice: the tally agrees with the hosted round",
  );
  console.log(`lucky-dice: round 1 over, coasters won ${end.view.totals}`);
}

/** Dice that the roller's numbered cards can match, so that hands shrink and the hand ends (a
 * real table's dice are not so kind); other numbers when the hand has none. */
function friendlyDice(hand: Schemas["LuckPlusCard"][], rolls: number): number[] {
  const numbers = new Set<number>();
  for (const card of hand) {
    const numbered = /^(GO|STOP)-(\d+)$/.exec(card);
    const number = Number(numbered?.[2]);
    if (number >= 1 && number <= 6) numbers.add(number);
  }
  const small = [...numbers].sort((a, b) => a - b);
  return [...small, (rolls % 6) + 1, ((rolls * 5 + 2) % 6) + 1].slice(0, 2);
}

/** The play that lays the most cards, then anything but a draw, which only grows the hand. */
function luckPlusPreference(move: Schemas["LuckPlusMove"]): number {
  switch (move.type) {
    case "play":
      return 100 + move.groups.reduce((cards, group) => cards + group.cards.length, 0);
    case "draw":
      return 0;
    default:
      return 1;
  }
}

async function playLuckPlus(names: string[]): Promise<void> {
  const created = await createMatch({ game: "luck-plus", seats: newSeats(names), randomness: "table" });
  const table = tableOf(created);
  let rolls = 0;
  const read = async (token: string): Promise<Schemas["LuckPlusMatchDetail"]> => {
    const match = await readMatch(table.id, token);
    if (match.game !== "luck-plus") throw wrongGame("luck-plus", match.game);
    return match;
  };
  const outcome = (match: Schemas["LuckPlusMatchDetail"]): Chance => {
    const chance = match.view.chance;
    if (chance === null || chance === undefined) throw new Error("luck-plus: no chance outcome is pending");
    const pile = chance.pile ?? [];
    switch (chance.kind) {
      case "deal": {
        // The match pile's first card may not be a LUCK PLUS card; the hands come after it.
        const flipAt = pile.findIndex((card) => card !== "LP");
        const flip = pile[flipAt];
        if (flip === undefined) throw new Error("luck-plus: the deck has a card to flip");
        const rest = pile.filter((_, index) => index !== flipAt);
        const hands = Array.from({ length: match.view.players }, (_, seat) =>
          rest.slice(8 * seat, 8 * seat + 8),
        );
        return { outcome: { kind: "deal", hands, flips: [flip] }, expected_version: match.version };
      }
      case "roll": {
        rolls++;
        const roller = chance.seat ?? match.view.turn;
        const dice = friendlyDice(match.view.hands[roller] ?? [], rolls);
        return { outcome: { kind: "roll", dice }, expected_version: match.version };
      }
      case "draw": {
        const card = pile[0];
        if (card === undefined) throw new Error("luck-plus: the owner sees a card to draw");
        return { outcome: { kind: "draw", card }, expected_version: match.version };
      }
    }
  };
  const choose = (match: Schemas["LuckPlusMatchDetail"]): Move => {
    const best = match.view.legal_moves.reduce((best, move) =>
      luckPlusPreference(move) > luckPlusPreference(best) ? move : best,
    );
    return { move: best, expected_version: match.version };
  };
  const end = await playTableRound(table, read, outcome, choose, (match) => match.view.results.length >= 1);
  check((end.view.results[0]?.out.length ?? 0) >= 1, "luck-plus: someone went out");
  console.log(`luck-plus: hand 1 over, totals ${end.view.totals}`);
}

async function playPlusMinus(names: string[]): Promise<void> {
  const created = await createMatch({ game: "plus-minus", seats: newSeats(names), randomness: "table" });
  const table = tableOf(created);
  const read = async (token: string): Promise<Schemas["PlusMinusMatchDetail"]> => {
    const match = await readMatch(table.id, token);
    if (match.game !== "plus-minus") throw wrongGame("plus-minus", match.game);
    return match;
  };
  const outcome = (match: Schemas["PlusMinusMatchDetail"]): Chance => {
    const chance = match.view.chance;
    if (chance === null || chance === undefined) throw new Error("plus-minus: no chance outcome is pending");
    const pile = chance.pile ?? [];
    switch (chance.kind) {
      case "deal": {
        const players = match.view.players;
        const pairFrom = (at: number): Schemas["PlusMinusCard"][] => pile.slice(2 * at, 2 * at + 2);
        const hands = Array.from({ length: players }, (_, seat) => pairFrom(seat));
        const faceUp = Array.from({ length: players }, (_, seat) => pairFrom(players + seat));
        return { outcome: { kind: "deal", hands, face_up: faceUp }, expected_version: match.version };
      }
      case "draw":
        return {
          outcome: { kind: "draw", cards: pile.slice(0, chance.count) },
          expected_version: match.version,
        };
    }
  };
  const choose = (match: Schemas["PlusMinusMatchDetail"]): Move => ({
    move: firstMove(match.view.legal_moves),
    expected_version: match.version,
  });
  const end = await playTableRound(table, read, outcome, choose, (match) => match.view.results.length >= 1);
  const scored = end.view.results[0];
  check(scored?.seats.length === names.length, "plus-minus: every seat is scored");
  check(
    end.view.totals.every((total, seat) => total === scored?.seats[seat]?.score),
    "plus-minus: totals are round 1's scores",
  );
  console.log(`plus-minus: round 1 over, totals ${end.view.totals}`);
}

/** Lucky Luau is one round: it is played until the centre is empty and every seat finished. */
async function playLuckyLuau(names: string[]): Promise<void> {
  const created = await createMatch({ game: "lucky-luau", seats: newSeats(names), randomness: "table" });
  const table = tableOf(created);
  const read = async (token: string): Promise<Schemas["LuckyLuauMatchDetail"]> => {
    const match = await readMatch(table.id, token);
    if (match.game !== "lucky-luau") throw wrongGame("lucky-luau", match.game);
    return match;
  };
  const cards: Schemas["LuckyLuauCard"][] = [
    "yellow",
    "red",
    "blue",
    "pink",
    "purple",
    "orange",
    "green",
    "rainbow",
    "ti",
    "mega",
    "kukui",
  ];
  const outcome = (match: Schemas["LuckyLuauMatchDetail"]): Chance => {
    const pile = match.view.chance?.pile;
    if (pile === null || pile === undefined) throw new Error("lucky-luau: the owner sees the face-down pile");
    const card = cards.find((card) => pile[card] > 0);
    if (card === undefined) throw new Error("lucky-luau: the face-down pile has a card");
    return { outcome: { kind: "draw", card }, expected_version: match.version };
  };
  const choose = (match: Schemas["LuckyLuauMatchDetail"]): Move => ({
    move: firstMove(match.view.legal_moves),
    expected_version: match.version,
  });
  const end = await playTableRound(table, read, outcome, choose, (match) => match.status === "finished");
  check(end.standings.winners.length >= 1, "lucky-luau: a finished match has a winner");
  console.log(`lucky-luau: over, totals ${end.standings.totals}`);
}

/** A Lucky Jack score sheet of three rounds, one of them corrected. */
async function keepScoreSheet(names: string[]): Promise<void> {
  const created = ok(
    await api.POST("/v1/sheets", {
      body: { game: "lucky-jack", players: newSeats(names), options: { rounds: 3 } },
    }),
    "create sheet",
  );
  const id = created.sheet.id;
  const enter = async (
    tally: Schemas["LuckyJackTally"],
    corrects?: number,
  ): Promise<Schemas["LuckyJackSheetDetail"]> => {
    const answer = await api.POST("/v1/sheets/{id}/entries", {
      params: { path: { id } },
      headers: bearer(created.owner_token),
      body: { tally, corrects: corrects ?? null },
    });
    const sheet = ok(answer, "sheet entry");
    if (sheet.game !== "lucky-jack") throw wrongGame("lucky-jack", sheet.game);
    return sheet;
  };
  const jackpot = (
    seat: number,
    symbol: Schemas["LuckyJackSymbol"],
    size: number,
  ): Schemas["LuckyJackTally"] => ({
    jackpot: { seat, symbol, size },
  });

  const first = await enter(jackpot(2, "jack", 4));
  await enter({ jackpot: null });
  const firstEntry = first.entries[0];
  if (firstEntry === undefined) throw new Error("the first entry is on the sheet");
  const corrected = await enter(jackpot(2, "bell", 4), firstEntry.seq);
  const total = (sheet: Schemas["LuckyJackSheetDetail"], seat: number): number =>
    sheet.standings.totals[seat] ?? 0;
  check(total(corrected, 2) < total(first, 2), "the correction lowered the total");
  check(corrected.entries[0]?.superseded_by === corrected.entries[2]?.seq, "the old entry is superseded");
  const last = await enter(jackpot(0, "seven", 3));
  check(last.status === "finished" && last.winners.join() === names[2], "three rounds end the sheet");

  const read = ok(await api.GET("/v1/sheets/{id}", { params: { path: { id } } }), "read sheet");
  if (read.game !== "lucky-jack") throw wrongGame("lucky-jack", read.game);
  check(read.rounds.map((round) => round.entry).join() === "3,2,4", "rounds name their latest entries");
  console.log(
    `sheet: totals ${first.standings.totals} corrected to ${corrected.standings.totals}, final ${read.standings.totals}`,
  );
  await mendScoreSheet(names[1] ?? "Ts Ben");
}

/** A Lucky Jack sheet of `players` played to its end (three rounds, the first seat's jackpots),
 * made in the household whose key `header` sends, or in the public space without one: its id. */
async function finishedSheet(players: string[], header: { "Household-Key"?: string } = {}): Promise<string> {
  const created = ok(
    await api.POST("/v1/sheets", { params: { header }, body: { game: "lucky-jack", players: newSeats(players) } }),
    "create sheet",
  );
  for (let round = 0; round < 3; round += 1) {
    ok(
      await api.POST("/v1/sheets/{id}/entries", {
        params: { path: { id: created.sheet.id } },
        headers: bearer(created.owner_token),
        body: { tally: { jackpot: { seat: 0, symbol: "bell", size: 4 } } },
      }),
      "sheet entry",
    );
  }
  return created.sheet.id;
}

/** A family's household: a public sheet of two of its players brought in by name, then a sheet
 * kept in it; neither is there without one of its keys, and its players are its own. */
async function keepHouse(family: string[]): Promise<void> {
  const made = ok(await api.POST("/v1/households", { body: { name: "The Ts family" } }), "make household");
  const owner = { "Household-Key": made.owner_key };
  const reader = { "Household-Key": made.reader_key };
  const before = await finishedSheet(family);
  const report = ok(
    await api.POST("/v1/households/{id}/bring-in", {
      params: { path: { id: made.household.id }, header: owner },
      body: { players: family },
    }),
    "bring in",
  );
  check(report.moved === 1 && report.stayed === 0, "the public sheet moved into the household");
  const kept = await finishedSheet(family, owner);
  for (const id of [before, kept]) {
    const outside = await api.GET("/v1/sheets/{id}", { params: { path: { id } } });
    check(outside.response.status === 404, "a household's sheet is not there without its key");
    ok(await api.GET("/v1/sheets/{id}", { params: { path: { id }, header: reader } }), "read with the reader key");
  }
  const name = family[0] ?? "Ts Hana";
  const inside = ok(
    await api.GET("/v1/players/{name}/stats", { params: { path: { name }, header: reader } }),
    "the household's player",
  );
  const publicly = ok(await api.GET("/v1/players/{name}/stats", { params: { path: { name } } }), "the public player");
  check(inside.overall.played === 2 && publicly.overall.played === 0, "the household's player is its own");
  console.log(`household: ${report.moved} sheet brought in, ${inside.overall.played} played by ${name} inside, 0 outside`);
}

/** A sheet mended: a round typed by mistake taken away, a player renamed, and the sheet finished
 * early when the little one fell asleep. */
async function mendScoreSheet(player: string): Promise<void> {
  const created = ok(
    await api.POST("/v1/sheets", {
      body: { game: "lucky-jack", players: newSeats([player, "Ts Dee"]) },
    }),
    "create sheet",
  );
  const id = created.sheet.id;
  const owner = bearer(created.owner_token);
  for (const tally of [{ jackpot: { seat: 0, symbol: "seven", size: 3 } }, { jackpot: null }] as const) {
    ok(
      await api.POST("/v1/sheets/{id}/entries", { params: { path: { id } }, headers: owner, body: { tally } }),
      "sheet entry",
    );
  }

  const removed = ok(
    await api.POST("/v1/sheets/{id}/remove-last-round", {
      params: { path: { id } },
      headers: owner,
      body: { note: "typed twice", expected_version: 2 },
    }),
    "remove the last round",
  );
  if (removed.game !== "lucky-jack") throw wrongGame("lucky-jack", removed.game);
  const removal = removed.entries[removed.entries.length - 1];
  check(removed.rounds.length === 1 && removed.version === 3, "the last round is taken away");
  check(removal?.kind === "removal" && removal.corrects === 2, "the removal is an entry");

  const renamed = ok(
    await api.PATCH("/v1/sheets/{id}/seats/{seat}", {
      params: { path: { id, seat: 1 } },
      headers: owner,
      body: { name: "Ts Dora", expected_version: removed.version },
    }),
    "rename a player",
  );
  if (renamed.game !== "lucky-jack") throw wrongGame("lucky-jack", renamed.game);
  const rename = renamed.entries[renamed.entries.length - 1]?.renamed;
  check(rename?.new_name === "Ts Dora" && renamed.players[1]?.name === "Ts Dora", "the rename is an entry");

  const done = ok(
    await api.POST("/v1/sheets/{id}/finish", {
      params: { path: { id } },
      headers: owner,
      body: { expected_version: renamed.version, note: "bedtime" },
    }),
    "finish early",
  );
  if (done.game !== "lucky-jack") throw wrongGame("lucky-jack", done.game);
  check(done.status === "finished" && done.finished_early, "the sheet is finished early");
  check(done.winners.join() === player, "the standings so far name the winner");
  console.log(`mended sheet: ${done.rounds.length} round, ${done.entries.length} entries, won by ${done.winners[0]}`);
}

async function readHistory(player: string, sheetWinner: string): Promise<void> {
  const page = ok(await api.GET("/v1/matches", { params: { query: { player } } }), "list matches");
  check(page.total >= 6, "every match and the sheet are listed");
  const kinds = new Set(page.items.map((item) => item.kind));
  check(kinds.has("hosted") && kinds.has("sheet"), "hosted matches and sheets share one history");
  // The history is NDJSON, one `HistoryLine` per line: read as text (a JSON parse is left `unknown`).
  const history = ok(
    await api.GET("/v1/players/{name}/history", {
      params: { path: { name: player }, query: { format: "ndjson" } },
      parseAs: "text",
    }),
    "player history",
  );
  const lines: unknown[] = history
    .split("\n")
    .filter((line) => line !== "")
    .map((line): unknown => JSON.parse(line));
  check(lines.length === page.total, "the player's history has a line per listed match");
  const stats = ok(
    await api.GET("/v1/players/{name}/stats", { params: { path: { name: player } } }),
    "player stats",
  );
  const jack = stats.games.filter((record) => record.game === "lucky-jack");
  check(jack.length === 1 && jack[0]?.played === 2, "the Lucky Jack match and sheet count as played");
  const board = ok(
    await api.GET("/v1/games/{game}/leaderboard", {
      params: { path: { game: "lucky-jack" }, query: { limit: 100 } },
    }),
    "leaderboard",
  );
  check(
    board.some((row) => row.player === sheetWinner && row.won >= 1),
    "the sheet's winner is ranked",
  );
  const entry = ok(
    await api.GET("/v1/games/{game}", { params: { path: { game: "luck-plus" } } }),
    "catalogue",
  );
  if (entry.slug !== "luck-plus") throw wrongGame("luck-plus", entry.slug);
  check(entry.min_players <= 3 && 3 <= entry.max_players, "Luck Plus seats three");
  check(entry.default_options.dealer === 0, "Luck Plus lists its default options");
  console.log(`history: ${page.total} matches for ${player}; ${board.length} on the Lucky Jack leaderboard`);
}

const sameSkill = (a: Schemas["SkillRating"], b: Schemas["SkillRating"]): boolean =>
  a.mu === b.mu && a.sigma === b.sigma && a.rating === b.rating;

/** The ratings of a player who finished matches and sheets above, their history, the game's
 * board page by page, a head-to-head with a player they sat with, and the whole record
 * exported as a BG Stats file and imported again: every play is already here. */
async function readRatings(player: string, opponent: string): Promise<void> {
  const ratings = ok(
    await api.GET("/v1/players/{name}/ratings", { params: { path: { name: player } } }),
    "player ratings",
  );
  const rated = ratings.games.filter((record) => record.rated >= 1);
  const record = rated.find((record) => record.game === "lucky-jack") ?? rated[0];
  if (record === undefined) throw new Error(`${player} has a rated game`);
  const game = record.game;
  const current = record.rating;
  check(Math.abs(current.rating - (current.mu - 3 * current.sigma)) <= 1e-9, "the rating is mu - 3 sigma");
  check(record.place >= 1 && record.place <= record.players, "the player has a place on the board");

  const points: Schemas["RatingPoint"][] = [];
  let cursor: string | undefined;
  for (let step = 0; ; step++) {
    check(step < MAX_STEPS, `the rating history ends within ${MAX_STEPS} pages`);
    const page = ok(
      await api.GET("/v1/players/{name}/ratings/{game}", {
        params: { path: { name: player, game }, query: cursor === undefined ? {} : { cursor } },
      }),
      "rating history",
    );
    points.push(...page.items);
    cursor = page.next_cursor ?? undefined;
    if (cursor === undefined) break;
  }
  check(points.length === record.rated, "the history has a point per rated result");
  const last = points[points.length - 1];
  check(last !== undefined && sameSkill(last.after, current), "the last point is the current rating");

  const board = ok(
    await api.GET("/v1/games/{game}/ratings", { params: { path: { game }, query: { limit: 2 } } }),
    "rating board",
  );
  const rows = [...board.items];
  const next = board.next_cursor;
  if (next !== null && next !== undefined) {
    const following = ok(
      await api.GET("/v1/games/{game}/ratings", {
        params: { path: { game }, query: { limit: 2, cursor: next } },
      }),
      "rating board, next page",
    );
    rows.push(...following.items);
  }
  check(rows.length >= 1, "the rating board has rows");
  check(
    rows.every((row, index) => index === 0 || (rows[index - 1]?.place ?? 0) <= row.place),
    "places never go down the board",
  );

  const versus = ok(
    await api.GET("/v1/players/{name}/versus/{opponent}", {
      params: { path: { name: player, opponent } },
    }),
    "head to head",
  );
  const shared = versus.games.filter((record) => record.game === game);
  const together = shared[0];
  if (together === undefined) throw new Error(`${player} and ${opponent} have a rated result together`);
  check(shared.length === 1 && together.played >= 1, "the two shared a rated table");
  check(
    together.player_ahead + together.opponent_ahead + together.level === together.played,
    "each shared result is ahead, behind or level",
  );
  check(versus.items.length >= 1, "their shared results are listed");

  // The export is streamed, but whole it is one BG Stats file: read it as one.
  const exported = ok(await api.GET("/v1/exports/bgstats"), "export everything");
  check(exported.plays.length >= 1, "the export holds the finished results");
  const report = ok(await api.POST("/v1/imports/bgstats", { body: exported }), "import");
  check(report.plays.length === exported.plays.length, "the import reports every play");
  check(report.plays.every((play) => play.outcome === "matched"), "every play is already here");
  check(report.created === 0 && report.skipped === 0, "the import creates nothing");
  console.log(
    `ratings: ${player} ${current.rating.toFixed(3)} in ${game}, place ${record.place} of ${record.players}; ` +
      `${rows.length} on the board; ${together.played} shared with ${opponent}; ` +
      `${report.matched} of ${exported.plays.length} exported plays matched`,
  );
}

// Names of their own keep this program's history apart from other clients' on the same service.
const names = ["Ts Ann", "Ts Ben", "Ts Cleo"];
await playLuckyJack(names.slice(0, 2));
await mendATableMatch(names.slice(0, 2));
await playLuckyDice(names);
await playLuckPlus(names);
await playPlusMinus(names);
await playLuckyLuau(names.slice(0, 2));
await keepScoreSheet(names);
await readHistory("Ts Ann", "Ts Cleo");
await readRatings("Ts Ann", "Ts Ben");
await keepHouse(["Ts Hana", "Ts Ivo"]);
