// The games' tables in words (web/tables/): every legal move and every log entry of real matches
// read as plain words, and the consequences a button promises are what the rules do.
//
//   BASE_URL=http://127.0.0.1:8080 node --test tests/browser/tables.test.mjs
//
// Runs against a live service (`.ci/page` starts one). Node 20, no dependencies: the page's
// word functions never touch `document`, so they are imported straight from web/.
// Each pinned case cites its rulebook passage (/work/shared/rules/*.txt, the printed rules) or
// the project's rules page (docs/rules/*.md) in its name.

import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { tableFor } from '../../web/tables/index.js';

const BASE = (process.env.BASE_URL || 'http://127.0.0.1:8080').replace(/\/$/, '');
const NAMES = ['Ann', 'Ben', 'Zoé', 'Dan'];

async function api(method, path, body, token) {
  const response = await fetch(BASE + path, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const json = text ? JSON.parse(text) : null;
  return { status: response.status, json };
}

async function ok(method, path, body, token) {
  const { status, json } = await api(method, path, body, token);
  assert.ok(status < 300, `${method} ${path}: ${status} ${JSON.stringify(json)}`);
  return json;
}

/** Words a family reads: no programmer's leftovers, no card codes, no seats counted from 0. */
function assertPlain(text, where) {
  assert.equal(typeof text, 'string', `${where}: not a string`);
  assert.ok(text.trim().length > 0, `${where}: empty`);
  for (const bad of ['undefined', 'null', 'NaN', '[object', '{', '}', 'Player 0']) {
    assert.ok(!text.includes(bad), `${where}: "${bad}" in "${text}"`);
  }
  assert.doesNotMatch(text, /\b[a-z]+_[a-z0-9_]+\b/, `${where}: a snake_case identifier in "${text}"`);
  assert.doesNotMatch(text, /\b(GO|STOP|TR|TP)-\d+\b|\bDBL\b|\bLP\b/, `${where}: a card code in "${text}"`);
  assert.doesNotMatch(text, /\bseat\b/i, `${where}: "seat" in "${text}"`);
}

function assertMoveWords(words, where) {
  assertPlain(words.title, `${where} title`);
  if (words.consequence !== '') assertPlain(words.consequence, `${where} consequence`);
  assert.equal(typeof words.irreversible, 'boolean', `${where}: irreversible is not a boolean`);
  if (words.irreversible) assertPlain(words.because, `${where} because`);
}

async function create(game, players, options = {}, randomness = 'server') {
  const created = await ok('POST', '/v1/matches', {
    game, seats: NAMES.slice(0, players).map((name) => ({ name })), options, randomness,
  });
  const tokens = Object.fromEntries(created.seat_tokens.map((seat) => [seat.seat, seat.token]));
  return { id: created.match.id, owner: created.owner_token, tokens, names: NAMES.slice(0, players), match: created.match };
}

const view = async (match, seat) => ok('GET', `/v1/matches/${match.id}`, undefined, match.tokens[seat]);
const chance = async (match, outcome) => ok('POST', `/v1/matches/${match.id}/chance`, { outcome }, match.owner);
const move = async (match, seat, played) => ok('POST', `/v1/matches/${match.id}/moves`, { move: played }, match.tokens[seat]);
const takeBack = async (match, seat) => api('POST', `/v1/matches/${match.id}/take-backs`, { seat }, match.tokens[seat]);

async function wholeLog(match, token) {
  const entries = [];
  for (let after = 0; after !== null;) {
    const page = await ok('GET', `/v1/matches/${match.id}/log?after=${after}&limit=1000`, undefined, token);
    entries.push(...page.entries);
    after = page.next_after ?? null;
  }
  return entries;
}

function ctxOf(match, game, seat, detail) {
  return { names: match.names, seat, game, options: detail.options, randomness: detail.randomness };
}

// ---- Every game played to its end, every word checked ----

const SHORT = {
  'lucky-jack': { players: 3, options: { max_turns_per_round: 5 } },
  'luck-plus': { players: 3, options: { target: 1 } },
  'lucky-dice': { players: 3, options: { coaster_target: 1 } },
  'lucky-luau': { players: 2, options: {} },
  'plus-minus': { players: 3, options: { rounds: 1 } },
};

describe('every game played to its end from each seat’s legal moves reads in plain words', () => {
  for (const [game, { players, options }] of Object.entries(SHORT)) {
    test(`${game}: every legal move, log entry and announcement is plain words`, async () => {
      const table = tableFor(game);
      const match = await create(game, players, options);
      let seed = 7;
      const pick = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
      const described = new Set();
      let cursor = 0;
      let finished = false;
      for (let step = 0; step < 4000 && !finished; step += 1) {
        const state = await ok('GET', `/v1/matches/${match.id}`);
        if (state.status !== 'in_progress') { finished = true; break; }
        let moved = false;
        for (const seat of state.to_act) {
          const detail = await view(match, seat);
          const ctx = ctxOf(match, game, seat, detail);
          const legal = detail.view.legal_moves;
          for (const candidate of legal) {
            const words = table.describeMove(candidate, detail.view, ctx);
            assertMoveWords(words, `${game} ${JSON.stringify(candidate)}`);
            described.add(candidate.type);
            // Words never depend on the view having every field: with none, still plain words.
            assertMoveWords(table.describeMove(candidate, {}, { game }), `${game} ${candidate.type} with an empty view`);
          }
          if (!legal.length) continue;
          let chosen = legal[pick(legal.length)];
          if (chosen.type === 'finish') chosen = { type: 'finish' };
          // The button's promise about taking back (docs/contract.md, "Mending a match"): a move
          // called reversible can be taken back at once, one called irreversible cannot.
          const promise = table.describeMove(chosen, detail.view, ctx);
          let reply = await move(match, seat, chosen);
          const back = await takeBack(match, seat);
          if (promise.irreversible) {
            assert.notEqual(back.status, 200, `${game}: "${promise.title}" was called irreversible but was taken back`);
          } else if (back.json?.code === 'take_back_limit') {
            // A seat that has taken back 3 moves in a row must let its 4th stand (issue 38):
            // the move was reversible, the limit is a rule of its own; the move stands.
            assert.equal(back.status, 409, JSON.stringify(back.json));
          } else {
            assert.equal(back.status, 200, `${game}: "${promise.title}" was called reversible: ${JSON.stringify(back.json)}`);
            reply = await move(match, seat, chosen);
          }
          for (const entry of reply.entries) {
            assertPlain(table.describeEntry(entry, ctx), `${game} entry ${JSON.stringify(entry)}`);
          }
          moved = true;
          break;
        }
        assert.ok(moved, `${game}: nobody could move`);
        // The log as a spectator reads it while the game goes on: hidden cards left out.
        const page = await ok('GET', `/v1/matches/${match.id}/log?after=${cursor}&limit=1000`);
        for (const entry of page.entries) {
          const ctx = { names: match.names, seat: null, game };
          assertPlain(table.describeEntry(entry, ctx), `${game} spectator entry ${JSON.stringify(entry)}`);
          const banner = table.announcement(entry, ctx);
          if (banner !== null) assertPlain(banner, `${game} announcement`);
          cursor = entry.ply;
        }
      }
      assert.ok(finished || (await ok('GET', `/v1/matches/${match.id}`)).status === 'finished', `${game}: not finished`);
      // The whole log from each seat and a spectator; the end is announced.
      let announced = 0;
      for (const seat of [null, ...Object.keys(match.tokens).map(Number)]) {
        const ctx = { names: match.names, seat, game };
        for (const entry of await wholeLog(match, seat === null ? undefined : match.tokens[seat])) {
          assertPlain(table.describeEntry(entry, ctx), `${game} log entry ${entry.ply}`);
          const banner = table.announcement(entry, ctx);
          if (banner !== null) {
            assertPlain(banner, `${game} announcement ${entry.ply}`);
            if (entry.events.some((event) => event.type === 'game_ended')) announced += 1;
          }
        }
      }
      assert.ok(announced >= 1, `${game}: the game's end was never announced`);
      assert.ok(described.size >= 2, `${game}: only ${[...described]} moves seen`);
    });
  }
});

// ---- Lucky Jack ----

const JACK_DEAL = {
  kind: 'deal',
  hands: [
    ['lemon', 'cherry', 'grape', 'clover', 'bell', 'seven', 'jack'],
    ['lemon', 'cherry', 'cherry', 'grape', 'clover', 'seven', 'jack'],
    ['lemon', 'grape', 'grape', 'clover', 'bell', 'seven', 'jack'],
  ],
  flip: 'bell',
};

describe('Lucky Jack', () => {
  const table = tableFor('lucky-jack');

  test('rulebook "How to Play", option 3: a card lower than the discard makes its player take 2 cards, and the button says so', async () => {
    const match = await create('lucky-jack', 3, {}, 'table');
    await chance(match, JACK_DEAL);
    const ben = await view(match, 1);
    const lemon = ben.view.legal_moves.find((candidate) => candidate.type === 'discard' && candidate.card === 'lemon');
    const words = table.describeMove(lemon, ben.view, ctxOf(match, 'lucky-jack', 1, ben));
    assert.equal(words.title, 'Discard a lemon');
    assert.match(words.consequence, /^Lower than the bell on top: you draw 2 cards/);
    const after = await move(match, 1, lemon);
    assert.deepEqual([after.view.chance.kind, after.view.chance.count, after.view.chance.seat], ['draw', 2, 1]);
  });

  test('rulebook "How to Play", option 2: a higher card costs nothing and the turn passes left; a discard shows a card, so it cannot be taken back', async () => {
    const match = await create('lucky-jack', 3, {}, 'table');
    await chance(match, JACK_DEAL);
    const ben = await view(match, 1);
    const jack = ben.view.legal_moves.find((candidate) => candidate.type === 'discard' && candidate.card === 'jack');
    const words = table.describeMove(jack, ben.view, ctxOf(match, 'lucky-jack', 1, ben));
    assert.equal(words.consequence, 'Higher than the bell on top: your turn ends; then Zoé plays');
    assert.equal(words.irreversible, true);
    assert.equal(words.because, 'Everyone sees the card you discard');
    const after = await move(match, 1, jack);
    assert.deepEqual(after.view.to_act, [2]);
    const refused = await takeBack(match, 1);
    assert.equal(refused.status, 409);
    assert.equal(refused.json.code, 'information_revealed');
  });

  test('docs/rules/lucky-jack.md, max_turns_per_round: on the cap\'s last turn the round ends with no score instead of passing on', async () => {
    const match = await create('lucky-jack', 3, { max_turns_per_round: 1, rounds: 3 }, 'table');
    await chance(match, JACK_DEAL);
    const ben = await view(match, 1);
    const jack = ben.view.legal_moves.find((candidate) => candidate.type === 'discard' && candidate.card === 'jack');
    const words = table.describeMove(jack, ben.view, ctxOf(match, 'lucky-jack', 1, ben));
    assert.equal(words.consequence, 'Higher than the bell on top: your turn ends; that is the round’s last turn: it ends with no jackpot');
    const after = await move(match, 1, jack);
    const ended = after.entries.flatMap((entry) => entry.events).find((event) => event.type === 'round_ended');
    assert.deepEqual([ended.round, ended.winner], [1, null]);
  });

  test('rulebook "How to Play", option 4: a drawn card is kept or discarded, and the next player may then say "I take it!"', () => {
    const drawnView = {
      players: 3, turn: 1, to_act: [1], phase: 'drawn', pending: 'grape', drawn_card_pending: true,
      hands: [null, ['lemon', 'cherry', 'cherry', 'grape', 'clover', 'seven', 'jack'], null], discard: ['bell'],
      turn_start_hand: 7, options: {},
    };
    const ctx = { names: NAMES, seat: 1, game: 'lucky-jack' };
    assert.deepEqual(table.describeMove({ type: 'keep' }, drawnView, ctx), { title: 'Keep the grape', consequence: 'It goes into your hand; your turn ends; then Zoé plays', irreversible: false });
    const discarded = table.describeMove({ type: 'discard_drawn' }, drawnView, ctx);
    assert.equal(discarded.consequence, 'Your turn ends; Zoé may take it by saying "I take it!"');
    assert.equal(discarded.irreversible, true);
  });

  test('rulebook "End of the Round" 1: a player down to 4 cards who discards the 4th and keeps 3 identical wins the JACKPOT (3 jacks: 7,000 points)', () => {
    const jackpotView = {
      players: 2, turn: 0, to_act: [0], phase: 'turn', hands: [['lemon', 'jack', 'jack', 'jack'], null],
      discard: ['lemon'], turn_start_hand: 4, options: { jackpot_auto_declare: true, lower_discard_can_win: false },
    };
    const ctx = { names: NAMES, seat: 0, game: 'lucky-jack' };
    const words = table.describeMove({ type: 'discard', card: 'lemon', jackpot: false }, jackpotView, ctx);
    assert.equal(words.title, 'Discard a lemon');
    assert.equal(words.consequence, 'Same as the lemon on top: JACKPOT: 3 jacks, 7,000 points for you, and the round ends');
    const called = table.describeMove({ type: 'discard', card: 'lemon', jackpot: true }, { ...jackpotView, round: 3, options: { rounds: 3 } }, ctx);
    assert.equal(called.title, 'Discard a lemon and call JACKPOT');
    assert.equal(called.consequence, 'Same as the lemon on top: JACKPOT: 3 jacks, 7,000 points for you, and the round ends, and so does the game');
  });

  test('rulebook "End of the Round" 1, played out: down to 4 cards, Ben discards his 4th and lays down 3 jacks; the button and the banner say JACKPOT, 7,000 points', async () => {
    const match = await create('lucky-jack', 2, {}, 'table');
    await chance(match, {
      kind: 'deal',
      hands: [
        ['lemon', 'cherry', 'grape', 'seven', 'seven', 'seven', 'bell'],
        ['lemon', 'cherry', 'grape', 'clover', 'jack', 'jack', 'jack'],
      ],
      flip: 'lemon',
    });
    for (const [seat, card] of [[1, 'lemon'], [0, 'lemon'], [1, 'cherry'], [0, 'cherry'], [1, 'grape'], [0, 'grape']]) {
      await move(match, seat, { type: 'discard', card, jackpot: false });
    }
    const ben = await view(match, 1);
    const clover = ben.view.legal_moves.find((candidate) => candidate.type === 'discard' && candidate.card === 'clover' && !candidate.jackpot);
    const words = table.describeMove(clover, ben.view, ctxOf(match, 'lucky-jack', 1, ben));
    assert.equal(words.consequence, 'Higher than the grape on top: JACKPOT: 3 jacks, 7,000 points for you, and the round ends');
    const reply = await move(match, 1, clover);
    const ctx = { names: match.names, seat: null, game: 'lucky-jack' };
    assert.equal(table.announcement(reply.entries[0], ctx), 'Round 1 ends: Ben wins the jackpot (three jacks, 7,000 points).');
    assert.equal(reply.view.totals[1], 7000);
  });

  test('docs/rules/lucky-jack.md (J7): a lower discard that leaves 3 identical cards wins nothing, its player draws 2', () => {
    const lowerView = {
      players: 2, turn: 0, to_act: [0], phase: 'turn', hands: [['lemon', 'jack', 'jack', 'jack'], null],
      discard: ['cherry'], turn_start_hand: 4, options: { lower_discard_can_win: false },
    };
    const words = table.describeMove({ type: 'discard', card: 'lemon', jackpot: false }, lowerView, { names: NAMES, seat: 0, game: 'lucky-jack' });
    assert.equal(words.consequence, 'Lower than the cherry on top: you draw 2 cards; then Ben plays');
  });

  test('rulebook "End of the Round" 2 and the score card: a round won with 4 jacks is announced with its 10,000 points', () => {
    const entry = {
      ply: 40, seat: 2, move: null,
      events: [
        { type: 'discarded', seat: 2, card: 'lemon', option: 'higher' },
        { type: 'jackpot', seat: 2, symbol: 'jack', size: 4, points: 10000 },
        { type: 'round_ended', round: 2, winner: 2 },
      ],
    };
    const ctx = { names: NAMES, seat: 0, game: 'lucky-jack' };
    assert.equal(table.announcement(entry, ctx), 'Round 2 ends: Zoé wins the jackpot (four jacks, 10,000 points).');
    assert.equal(table.describeEntry(entry, ctx), 'Zoé discarded a lemon (higher than the top); JACKPOT! Zoé laid down four jacks and won 10,000 points; round 2 ends: Zoé wins the jackpot (four jacks, 10,000 points)');
  });
});

// ---- Luck Plus ----

const PLUS_DEAL = {
  kind: 'deal',
  hands: [
    ['GO-1', 'GO-2', 'GO-3', 'GO-4', 'GO-5', 'GO-6', 'GO-7', 'GO-8'],
    ['GO-10', 'GO-11', 'GO-11', 'GO-12', 'GO-12', 'STOP-11', 'STOP-12', 'LP'],
    ['GO-1', 'GO-2', 'GO-3', 'GO-4', 'GO-5', 'GO-6', 'GO-7', 'GO-8'],
  ],
  flips: ['GO-9'],
};

describe('Luck Plus', () => {
  const table = tableFor('luck-plus');

  test('rulebook "LUCK PLUS CARD": played with no bonus, the turn ends and the next player must play any card as a bonus; nothing hidden is shown, so it can be taken back', async () => {
    const match = await create('luck-plus', 3, {}, 'table');
    await chance(match, PLUS_DEAL);
    const ben = await view(match, 1);
    const luck = ben.view.legal_moves.find((candidate) => candidate.type === 'luck_plus' && candidate.bonus.length === 0);
    const words = table.describeMove(luck, ben.view, ctxOf(match, 'luck-plus', 1, ben));
    assert.equal(words.title, 'Play Luck Plus with no bonus');
    assert.equal(words.consequence, 'Your turn ends; Zoé must then play any one card (and others of its number) as a bonus, and that is their whole turn');
    assert.equal(words.irreversible, false);
    const after = await move(match, 1, luck);
    assert.equal(after.view.phase, 'forced_bonus');
    assert.equal(after.view.turn, 2);
    assert.equal((await takeBack(match, 1)).status, 200);
  });

  test('rulebook "TRANSFER CARD": a drawn TRANSFER may be given to the player on the left, who takes one card more, and the giver must roll again', async () => {
    const match = await create('luck-plus', 3, {}, 'table');
    await chance(match, PLUS_DEAL);
    await move(match, 1, { type: 'roll' });
    await chance(match, { kind: 'roll', dice: [1, 2] });
    const rolled = await view(match, 1);
    const draw = rolled.view.legal_moves.find((candidate) => candidate.type === 'draw');
    assert.equal(table.describeMove(draw, rolled.view, ctxOf(match, 'luck-plus', 1, rolled)).consequence, 'If you can play it, your turn goes on; if not, you keep it and your turn ends');
    await move(match, 1, draw);
    await chance(match, { kind: 'draw', card: 'TR-5' });
    const drawn = await view(match, 1);
    const give = drawn.view.legal_moves.find((candidate) => candidate.type === 'transfer');
    const words = table.describeMove(give, drawn.view, ctxOf(match, 'luck-plus', 1, drawn));
    assert.equal(words.title, 'Give Transfer 5 to Zoé');
    assert.equal(words.consequence, 'Zoé takes 1 card more; then you must roll again');
    const before = drawn.view.hands[2].length;
    const after = await move(match, 1, give);
    assert.equal(after.view.hands[2].length, before + 1);
    assert.equal(after.view.phase, 'must_roll');
  });

  test('rulebook "STOP CARD": a STOP played as the last card of a match ends the turn', () => {
    const stopView = {
      players: 3, turn: 1, phase: 'rolled', dice: [5, 6], match_top: 'GO-9', out: [],
      hands: [[], ['GO-1', 'STOP-11', 'GO-3'], []], options: {},
    };
    const words = table.describeMove({ type: 'play', groups: [{ basis: 'total', cards: ['STOP-11'] }] }, stopView, { names: NAMES, seat: 1, game: 'luck-plus' });
    assert.equal(words.title, 'Play Stop 11');
    assert.equal(words.consequence, 'Matches the dice total, 11. A Stop card last: your turn ends, then Zoé plays');
    const go = table.describeMove({ type: 'play', groups: [{ basis: 'pair', cards: ['GO-1', 'GO-3'] }] }, { ...stopView, dice: [1, 3] }, { names: NAMES, seat: 1, game: 'luck-plus' });
    assert.equal(go.consequence, 'Matches both dice, 1 and 3. Then you must roll again');
  });

  test('rulebook "SCORING" by point system: the player who goes out scores the points left in the other hands (Doubles 15, Luck Plus 25)', () => {
    const outView = {
      players: 2, turn: 0, phase: 'rolled', dice: [3, 4], match_top: 'GO-9', out: [], first_turn: false,
      hands: [['GO-7'], ['DBL', 'LP', 'GO-12']], totals: [0, 0], target: 250, options: { scoring: 'points_to_winner' },
    };
    const play = { type: 'play', groups: [{ basis: 'total', cards: ['GO-7'] }] };
    const words = table.describeMove(play, outView, { names: NAMES, seat: 0, game: 'luck-plus', randomness: 'table' });
    assert.equal(words.consequence, 'Matches the dice total, 7. You go out and score the 52 points left in the other hands');
    assert.equal(words.irreversible, false, 'at a table the next deal waits to be reported');
    assert.equal(table.describeMove(play, outView, { names: NAMES, seat: 0, game: 'luck-plus', randomness: 'server' }).irreversible, true,
      'in a server match the next deal comes with the move, and no take-back reaches past chance (docs/contract.md)');
  });

  test('rulebook "SCORING" by hands: going out wins the hand, and winning the last hand needed ends the game, which nothing can take back', () => {
    const lastView = {
      players: 2, turn: 0, phase: 'rolled', dice: [3, 4], match_top: 'GO-9', out: [], first_turn: false,
      hands: [['GO-7'], ['GO-1']], totals: [4, 2], target: 5, options: { scoring: 'hands' },
    };
    const words = table.describeMove({ type: 'play', groups: [{ basis: 'total', cards: ['GO-7'] }] }, lastView, { names: NAMES, seat: 0, game: 'luck-plus' });
    assert.equal(words.consequence, 'Matches the dice total, 7. You go out and win the hand; that ends the game');
    assert.equal(words.irreversible, true);
  });
});

// ---- Lucky Dice ----

describe('Lucky Dice', () => {
  const table = tableFor('lucky-dice');

  test('rulebook "HOW TO PLAY": dice showing the lucky symbol go on the tray, the coaster\'s left symbol to the player on the left, its right symbol to the player on the right', async () => {
    const match = await create('lucky-dice', 3, {}, 'table');
    await chance(match, { kind: 'coasters', coasters: [{ left: 'clover', right: 'pig' }, { left: 'clover', right: 'cat' }, { left: 'clover', right: 'penny' }] });
    await chance(match, { kind: 'lucky_symbol', symbol: 'hamsa' });
    const ann = await view(match, 0);
    const roll = ann.view.legal_moves.find((candidate) => candidate.type === 'roll');
    const words = table.describeMove(roll, ann.view, ctxOf(match, 'lucky-dice', 0, ann));
    assert.equal(words.title, 'Roll your 3 dice');
    assert.equal(words.consequence, 'Dice showing the hand of Fatima go to the tray; the four-leaf clover goes to Ben; the lucky pig goes to Zoé; with none left you call "Stop!"');
    await move(match, 0, roll);
    const reply = await chance(match, { kind: 'roll', faces: ['hamsa', 'clover', 'pig'] });
    const rolled = reply.entries.flatMap((entry) => entry.events).find((event) => event.type === 'rolled');
    assert.deepEqual(rolled.dice.map((die) => [die.to, die.seat]), [['tray', null], ['left', 1], ['right', 2]]);
    assert.equal(table.describeEntry(reply.entries[0], { names: match.names, seat: null, game: 'lucky-dice' }),
      'Ann’s dice showed hand of Fatima, four-leaf clover and lucky pig: 1 to the tray, 1 to Ben, 1 to Zoé; Ann had no dice left and called "Stop!"');
  });

  test('rulebook "HOW TO PLAY": after "Stop!" the others may roll 3 more times and only lucky symbols count', () => {
    const afterStop = {
      players: 3, phase: 'after_stop', stop_caller: 0, lucky_symbol: 'cat', pools: [0, 4, 2],
      extra_rolls_used: [0, 1, 0], finished_extra: [false, false, false], to_act: [1, 2],
      coasters: [{ left: 'clover', right: 'pig' }, { left: 'clover', right: 'cat' }, { left: 'clover', right: 'penny' }],
      options: { extra_rolls: 3 },
    };
    const ctx = { names: NAMES, seat: 1, game: 'lucky-dice' };
    const words = table.describeMove({ type: 'extra_roll', dice: 4 }, afterStop, ctx);
    assert.equal(words.title, 'Roll your 4 dice: last roll 2 of 3');
    assert.equal(words.consequence, 'Only dice showing the beckoning cat go to the tray; get rid of them all to win a coaster too');
    assert.equal(table.describeMove({ type: 'finish_extra_rolls' }, afterStop, ctx).consequence, 'You keep your 4 dice and give up your last 2 rolls');
  });
});

// ---- Lucky Luau ----

describe('Lucky Luau', () => {
  const table = tableFor('lucky-luau');

  test('rulebook "How to Play": a card drawn face down is strung from left to right, and once shown it cannot be taken back', async () => {
    const match = await create('lucky-luau', 2, {}, 'table');
    await move(match, 0, { type: 'draw_face_down' });
    await chance(match, { kind: 'draw', card: 'blue' });
    const ann = await view(match, 0);
    const string = ann.view.legal_moves.find((candidate) => candidate.type === 'string');
    const words = table.describeMove(string, ann.view, ctxOf(match, 'lucky-luau', 0, ann));
    assert.equal(words.title, 'String the Blue Flower at the end of your lei (place 1)');
    assert.equal(words.consequence, 'It stays there for good; your turn ends, then Ben plays');
    assert.equal(words.irreversible, true);
    assert.equal(words.because, 'Everyone sees the card');
    const toss = table.describeMove({ type: 'toss' }, ann.view, ctxOf(match, 'lucky-luau', 0, ann));
    assert.equal(toss.title, 'Toss the Blue Flower back face up');
    const reply = await move(match, 0, string);
    const strung = reply.entries.flatMap((entry) => entry.events).find((event) => event.type === 'strung');
    assert.equal(strung.index, 0);
    assert.equal((await takeBack(match, 0)).json.code, 'information_revealed');
  });

  test('docs/rules/lucky-luau.md, "Hidden information": a card drawn face down is named to its drawer alone, in the log as on the table', async () => {
    const match = await create('lucky-luau', 2, {}, 'table');
    await move(match, 0, { type: 'draw_face_down' });
    await chance(match, { kind: 'draw', card: 'kukui' });
    const spectator = await wholeLog(match);
    const mine = await wholeLog(match, match.tokens[0]);
    const said = (entries, seat) => entries.map((entry) => table.describeEntry(entry, { names: match.names, seat, game: 'lucky-luau' }));
    assert.deepEqual(said(spectator, null), ['Ann drew a face-down card', 'Only Ann sees the card drawn']);
    assert.deepEqual(said(mine, 0), ['Ann drew a face-down card', 'The card Ann drew is a Kukui Nut']);
  });

  test('rulebook "How to Play": a face-up card drawn must be strung; the Spacer holds a place for later and can be taken back', async () => {
    const match = await create('lucky-luau', 2, {}, 'table');
    const ben = await view(match, 1);
    const spacer = ben.view.legal_moves.find((candidate) => candidate.type === 'place_spacer');
    const words = table.describeMove(spacer, ben.view, ctxOf(match, 'lucky-luau', 1, ben));
    assert.equal(words.title, 'Place your Spacer at place 1');
    assert.equal(words.irreversible, false);
    await move(match, 1, spacer);
    assert.equal((await takeBack(match, 1)).status, 200);
    const faceUp = table.describeMove({ type: 'draw_face_up', card: 'red' }, { ...ben.view, face_up: { ...ben.view.face_up, red: 1 } }, ctxOf(match, 'lucky-luau', 1, ben));
    assert.deepEqual(faceUp, { title: 'Take the face-up Red Flower', consequence: 'A face-up card must be strung on your lei', irreversible: false });
  });
});

// ---- Plus & Minus ----

describe('Plus & Minus', () => {
  const table = tableFor('plus-minus');

  test('rulebook step 4: after playing a 5, a player draws two more cards and plays twice more', async () => {
    const match = await create('plus-minus', 3, {}, 'table');
    await chance(match, {
      kind: 'deal',
      hands: [['2', '3'], ['5', '9'], ['4', '8']],
      face_up: [['7', 'J'], ['6', 'Q'], ['K', 'A']],
    });
    await chance(match, { kind: 'draw', cards: ['2', '3'] });
    const ben = await view(match, 1);
    const five = ben.view.legal_moves.find((candidate) => candidate.type === 'play' && candidate.card === '5' && candidate.stack.seat === 1 && candidate.stack.stack === 'minus');
    const words = table.describeMove(five, ben.view, ctxOf(match, 'plus-minus', 1, ben));
    assert.equal(words.title, 'Play 5 on your minus stack');
    assert.equal(words.consequence, '5 points off your score; you draw 2 more cards and play twice more');
    assert.equal(words.irreversible, true);
    const after = await move(match, 1, five);
    assert.deepEqual([after.view.chance.kind, after.view.chance.count, after.view.chance.reason], ['draw', 2, 'five']);
  });

  test('rulebook step 4: after playing a king, the top Minus cards of two other players move onto their Plus stacks (a stack of one gives its only card)', async () => {
    const match = await create('plus-minus', 3, {}, 'table');
    await chance(match, {
      kind: 'deal',
      hands: [['2', '3'], ['K', '9'], ['4', '8']],
      face_up: [['7', 'J'], ['6', 'Q'], ['K', 'A']],
    });
    await chance(match, { kind: 'draw', cards: ['2', '3'] });
    const ben = await view(match, 1);
    const king = ben.view.legal_moves.find((candidate) => candidate.type === 'play' && candidate.card === 'K'
      && candidate.stack.seat === 1 && candidate.stack.stack === 'plus' && candidate.king_targets.includes(0) && candidate.king_targets.includes(2));
    const words = table.describeMove(king, ben.view, ctxOf(match, 'plus-minus', 1, ben));
    assert.equal(words.title, 'Play King on your plus stack; move Ann’s and Zoé’s top minus cards to plus');
    assert.equal(words.consequence, '10 points for you; the only card of Ann’s minus stack and the only card of Zoé’s minus stack go onto the plus stacks; any card may go on it next; then you pass a card to Zoé');
    const after = await move(match, 1, king);
    for (const target of [0, 2]) {
      assert.equal(after.view.stacks[target].minus.size, 0);
      assert.equal(after.view.stacks[target].plus.size, 2);
    }
    assert.equal(after.view.phase, 'pass');
  });

  test('rulebook step 4: a 10 swaps any two stacks, so a 10 played on a stack that is swapped ends on the other one', () => {
    const tenView = { players: 3, turn: 0, phase: 'play', plays_remaining: 1, draw_stack_size: 20, hands: [['10', '3'], null, null], options: {} };
    const words = table.describeMove({
      type: 'play', card: '10', stack: { seat: 0, stack: 'plus' }, swap: [{ seat: 0, stack: 'plus' }, { seat: 2, stack: 'minus' }],
    }, tenView, { names: NAMES, seat: 0, game: 'plus-minus' });
    assert.equal(words.title, 'Play 10 on your plus stack, then swap your plus stack and Zoé’s minus stack');
    assert.equal(words.consequence, '10 points off Zoé’s score; the two stacks change places, so the 10 ends on Zoé’s minus stack; then you pass a card to Ben');
  });

  test('rulebook step 4: a king moves the top 2 Minus cards of two other players onto their Plus stacks, and any card may follow it', () => {
    const kingView = { players: 3, turn: 0, phase: 'play', plays_remaining: 1, draw_stack_size: 20, hands: [['K', '3'], null, null], options: {} };
    const words = table.describeMove({ type: 'play', card: 'K', stack: { seat: 1, stack: 'minus' }, king_targets: [1, 2] }, kingView, { names: NAMES, seat: 0, game: 'plus-minus' });
    assert.equal(words.title, 'Play King on Ben’s minus stack; move Ben’s and Zoé’s top minus cards to plus');
    assert.equal(words.consequence, '10 points for Ben; the top 2 cards of Ben’s and Zoé’s minus stacks go onto the plus stacks; any card may go on it next; then you pass a card to Ben');
    // With the stacks in view: a stack of one card gives that card, an empty one nothing.
    const stacks = [
      { plus: { size: 1, top: '8' }, minus: { size: 1, top: '2' } },
      { plus: { size: 1, top: '9' }, minus: { size: 1, top: '3' } },
      { plus: { size: 2, top: 'Q' }, minus: { size: 0, top: null } },
    ];
    const counted = table.describeMove({ type: 'play', card: 'K', stack: { seat: 1, stack: 'minus' }, king_targets: [1, 2] }, { ...kingView, stacks }, { names: NAMES, seat: 0, game: 'plus-minus' });
    assert.equal(counted.consequence, '10 points for Ben; the top 2 cards of Ben’s minus stack go onto the plus stack; Zoé has no minus card to move; any card may go on it next; then you pass a card to Ben');
  });

  test('rulebook step 6: after the last card of the draw stack, the turn ends with the pass and the round is scored', () => {
    const passView = { players: 3, turn: 2, phase: 'pass', draw_stack_size: 0, hands: [null, null, ['9', 'A']], options: {} };
    const words = table.describeMove({ type: 'pass', card: 'A' }, passView, { names: NAMES, seat: 2, game: 'plus-minus' });
    assert.equal(words.title, 'Pass Ace to Ann');
    assert.equal(words.consequence, 'Ann gets it face down; the draw stack is empty, so the round ends and is scored');
  });
});

// ---- Mending, as every game shows it ----

test('docs/contract.md "Mending a match": a take-back and a corrected chance report read as sentences', () => {
  const table = tableFor('lucky-jack');
  const ctx = { names: NAMES, seat: null, game: 'lucky-jack' };
  assert.equal(table.describeEntry({ ply: 5, seat: 1, takes_back: 4, events: [] }, ctx), 'Ben took back a move (move 4)');
  assert.equal(table.announcement({ ply: 5, seat: 1, takes_back: 4, events: [] }, ctx), null);
  assert.equal(table.describeEntry({ ply: 3, seat: null, corrects: 1, reported_by: 'owner', events: [] }, ctx), 'The match’s owner corrected what chance gave at move 1');
});
