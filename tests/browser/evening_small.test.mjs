// The smaller things of the family's evening, in Node with no service and no browser: the address
// other phones reach (web/dom.js), the shuffle's fingerprint checked by the page itself
// (web/match.js), a rename followed by the phone's lists (web/store.js), and round ends said in
// sentences, small numbers in words (web/tables/). The page_evening_small.py walk sees the same
// in Chromium.
//
//   node --test tests/browser/evening_small.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import './phone_storage.mjs';
import { createHash, randomBytes } from 'node:crypto';
import { isLoopback, networkOrigin } from '../../web/dom.js';
import { sha256Plain, seedBytes, seedFingerprint, openingOutcomes, sameJson, checkShuffle, newsText, entryText } from '../../web/match.js';
import { rememberSheet, mySheets, keepSheetPlayers, rememberNames, roster, renameInRoster } from '../../web/store.js';
import { sentences, numberWords, amount } from '../../web/tables/common.js';
import { tableFor } from '../../web/tables/index.js';


// ---- 1. Codes other phones scan ----

test('127.x, localhost and ::1 are this device only; a network address is not', () => {
  for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', 'app.localhost', '[::1]', '::1']) assert.ok(isLoopback(host), host);
  for (const host of ['192.168.1.20', '10.0.0.5', 'my-pc.local', '127.example.org', '1127.0.0.1', '[fe80::1]']) assert.ok(!isLoopback(host), host);
});

test('the address the host types becomes an origin, with the page’s port when it has none', () => {
  const page = 'http://127.0.0.1:8080/#host=x';
  assert.equal(networkOrigin('192.168.1.20', page), 'http://192.168.1.20:8080');
  assert.equal(networkOrigin(' 192.168.1.20:9000 ', page), 'http://192.168.1.20:9000');
  assert.equal(networkOrigin('http://192.168.1.20:8080/', page), 'http://192.168.1.20:8080');
  assert.equal(networkOrigin('http://my-pc.local:80', page), 'http://my-pc.local');
  assert.equal(networkOrigin('https://games.example', 'http://localhost/'), 'https://games.example');
  for (const wrong of ['', '   ', 'ftp://192.168.1.20', 'http://', 'a b c']) assert.equal(networkOrigin(wrong, page), null, wrong);
});

// ---- 2. The shuffle's fingerprint ----

const SEVENS = '07'.repeat(32);

test('the page’s own SHA-256 gives the fingerprint src/seed.rs pins for the seed [7; 32]', async () => {
  assert.equal(sha256Plain(seedBytes(SEVENS)), '4bb06f8e4e3a7715d201d573d0aa423762e55dabd61a2c02278fa56cc6d294e0');
  // The fingerprint is of the seed's 32 bytes, not of its 64 letters.
  assert.notEqual(sha256Plain(new TextEncoder().encode(SEVENS)), sha256Plain(seedBytes(SEVENS)));
  assert.equal(await seedFingerprint(SEVENS), '4bb06f8e4e3a7715d201d573d0aa423762e55dabd61a2c02278fa56cc6d294e0');
  assert.equal(await seedFingerprint('not a seed'), null);
});

test('the page’s own SHA-256 agrees with Node’s on every padding case', () => {
  for (const size of [0, 1, 31, 32, 55, 56, 63, 64, 65, 119, 120, 1000]) {
    const bytes = randomBytes(size);
    assert.equal(sha256Plain(new Uint8Array(bytes)), createHash('sha256').update(bytes).digest('hex'), `${size} bytes`);
  }
});

test('without crypto.subtle (a page at http://192.168.1.20), the fingerprint is still checked', async () => {
  const subtle = Object.getOwnPropertyDescriptor(globalThis.crypto, 'subtle')
    || Object.getOwnPropertyDescriptor(Object.getPrototypeOf(globalThis.crypto), 'subtle');
  Object.defineProperty(globalThis.crypto, 'subtle', { value: undefined, configurable: true });
  try {
    assert.equal(await seedFingerprint(SEVENS), '4bb06f8e4e3a7715d201d573d0aa423762e55dabd61a2c02278fa56cc6d294e0');
  } finally {
    delete globalThis.crypto.subtle;
    if (!globalThis.crypto.subtle && subtle) Object.defineProperty(globalThis.crypto, 'subtle', subtle);
  }
});

test('the opening deal is the log’s chance entries before anyone acted', () => {
  const deal = { kind: 'deal', hands: [['lemon'], ['jack']], flip: 'bell' };
  assert.deepEqual(openingOutcomes([{ ply: 1, seat: null, chance: deal }, { ply: 2, seat: 1, move: { type: 'draw' } }, { ply: 3, seat: null, chance: { kind: 'draw' } }]), [deal]);
  assert.deepEqual(openingOutcomes([{ ply: 1, seat: 0, move: { type: 'string' } }]), []);
  // A log read while cards are hidden cannot be dealt again.
  assert.equal(openingOutcomes([{ ply: 1, seat: null, events: [] }]), null);
  assert.ok(sameJson({ a: [1, { b: 2, c: 3 }] }, { a: [1, { c: 3, b: 2 }] }));
  assert.ok(!sameJson({ a: [1, 2] }, { a: [2, 1] }));
});

test('a seed that does not match its fingerprint is said so, and nothing else is claimed', async () => {
  const match = { game: 'lucky-jack', seats: [{}, {}], options: {}, seed: SEVENS, seed_sha256: '0'.repeat(64) };
  const asked = [];
  const result = await checkShuffle(match, [], async (path) => { asked.push(path); return {}; });
  assert.deepEqual(result, { fingerprint: 'different', deal: 'unknown' });
  assert.deepEqual(asked, []);
});

test('the opening deal is dealt again from the seed and compared with the table the log makes', async () => {
  const deal = { kind: 'deal', hands: [['lemon'], ['jack']], flip: 'bell' };
  const match = { game: 'lucky-jack', seats: [{}, {}], options: { rounds: 3 }, seed: SEVENS, seed_sha256: '4BB06F8E4E3A7715D201D573D0AA423762E55DABD61A2C02278FA56CC6D294E0' };
  const service = (dealtHands) => async (path, body) => {
    if (path.endsWith('/states')) return { state: body.seed ? { hands: dealtHands } : { hands: null } };
    return { state: { hands: body.outcome.hands } };
  };
  const asked = [];
  const same = await checkShuffle(match, [{ ply: 1, seat: null, chance: deal }], async (path, body) => { asked.push([path, body.seed || null]); return service(deal.hands)(path, body); });
  assert.deepEqual(same, { fingerprint: 'same', deal: 'same' });
  assert.deepEqual(asked, [['/v1/games/lucky-jack/states', SEVENS], ['/v1/games/lucky-jack/states', null], ['/v1/games/lucky-jack/chance', null]]);
  assert.equal((await checkShuffle(match, [{ ply: 1, seat: null, chance: deal }], service([['jack'], ['lemon']]))).deal, 'different');
  assert.equal((await checkShuffle(match, [{ ply: 1, seat: 0, move: {} }], service(deal.hands))).deal, 'none');
});

// ---- 3. A rename followed by the phone's lists ----

test('a renamed player: the roster offers the new name where the old one was, never the old one', () => {
  rememberNames(['Nina', 'Noor', 'Otto']);
  renameInRoster('Noor', 'Noora');
  assert.deepEqual(roster(), ['Nina', 'Noora', 'Otto']);
  // Renamed to a name already kept: one entry, where the renamed one was.
  renameInRoster('Nina', 'otto');
  assert.deepEqual(roster(), ['otto', 'Noora']);
  // A name this phone never kept: the new one goes first.
  renameInRoster('Zed', 'Zoé');
  assert.deepEqual(roster(), ['Zoé', 'otto', 'Noora']);
});

test('the list of sheets names the players as the sheet now does', () => {
  const sheet = { id: 's1', game: 'lucky-jack', created_at: '2026-11-28T20:00:00Z', players: [{ seat: 0, name: 'Nina' }, { seat: 1, name: 'Noor' }] };
  rememberSheet(sheet, 'own_1', null);
  keepSheetPlayers({ ...sheet, players: [{ seat: 0, name: 'Nina' }, { seat: 1, name: 'Noora' }] });
  assert.deepEqual(mySheets()[0].players, ['Nina', 'Noora']);
  assert.equal(mySheets()[0].token, 'own_1');
  // A sheet this phone does not keep is not added.
  keepSheetPlayers({ ...sheet, id: 's2' });
  assert.equal(mySheets().length, 1);
});

// ---- 4. Round ends in sentences, small numbers in words ----

test('sentences end with their full stop and are joined by a space', () => {
  assert.equal(sentences(['round 1 ends: Ann wins', 'The game is over']), 'Round 1 ends: Ann wins. The game is over.');
  assert.equal(sentences(['Stop! Ann has no dice left', 'JACKPOT!', 'He said "Stop!"', '', null, 'Ann (three sevens, 6,000 points)']),
    'Stop! Ann has no dice left. JACKPOT! He said "Stop!" Ann (three sevens, 6,000 points).');
  assert.deepEqual([0, 1, 7, 12, 13, 6000, -3].map(numberWords), ['zero', 'one', 'seven', 'twelve', '13', '6,000', '−3']);
  assert.deepEqual([amount(1, 'point'), amount(7, 'point'), amount(6000, 'point')], ['one point', 'seven points', '6,000 points']);
});

const NAMES = ['Ann', 'Ben'];
const SEVENS_JACKPOT = {
  ply: 9, seat: 0, move: { type: 'discard', card: 'bell', jackpot: false },
  events: [
    { type: 'discarded', seat: 0, card: 'bell', option: 'higher' },
    { type: 'jackpot', seat: 0, symbol: 'seven', size: 3, points: 6000 },
    { type: 'round_ended', round: 1, winner: 0 },
  ],
};

test('Lucky Jack: a jackpot of sevens is "three sevens", in sentences with their full stops', () => {
  const table = tableFor('lucky-jack');
  const ctx = { names: NAMES, seat: null, game: 'lucky-jack' };
  assert.equal(table.announcement(SEVENS_JACKPOT, ctx), 'Round 1 ends: Ann wins the jackpot (three sevens, 6,000 points).');
  assert.equal(table.describeEntry(SEVENS_JACKPOT, ctx),
    'Ann discarded a bell (higher than the top); JACKPOT! Ann laid down three sevens and won 6,000 points; round 1 ends: Ann wins the jackpot (three sevens, 6,000 points)');
  const ended = { ...SEVENS_JACKPOT, events: [...SEVENS_JACKPOT.events, { type: 'game_ended', winners: [0], totals: [6000, 0] }] };
  assert.equal(table.announcement(ended, ctx), 'Round 1 ends: Ann wins the jackpot (three sevens, 6,000 points). The game is over: Ann wins with 6,000 points.');
  // A seven discarded is "a seven"; cherries are cherries.
  assert.equal(table.describeEntry({ ply: 3, seat: 1, events: [{ type: 'discarded', seat: 1, card: 'seven', option: 'same' }] }, ctx), 'Ben discarded a seven (the same as the top)');
  assert.match(table.announcement({ ply: 4, seat: 1, events: [{ type: 'jackpot', seat: 1, symbol: 'cherry', size: 4, points: 4000 }, { type: 'round_ended', round: 2, winner: 1 }] }, ctx), /\(four cherries, 4,000 points\)\.$/);
});

test('Plus & Minus: the game’s end says "seven points" in words', () => {
  const said = tableFor('plus-minus').announcement({ ply: 30, seat: 0, events: [{ type: 'game_ended', winners: [1], totals: [-2, 7] }] }, { names: NAMES, seat: null, game: 'plus-minus' });
  assert.equal(said, 'The game is over: Ben wins with seven points.');
});

test('the match’s banner says several entries as separate sentences, never run together', () => {
  const table = tableFor('lucky-jack');
  const ctx = { names: NAMES, seat: null, game: 'lucky-jack' };
  const next = { ply: 10, seat: null, chance: null, events: [{ type: 'round_started', round: 2, first: 1 }, { type: 'dealt', seat: 0, count: 7 }, { type: 'dealt', seat: 1, count: 7 }] };
  const quiet = { ply: 8, seat: 1, events: [{ type: 'discarded', seat: 1, card: 'clover', option: 'higher' }] };
  assert.equal(newsText(table, [quiet, SEVENS_JACKPOT, next], ctx),
    'Round 1 ends: Ann wins the jackpot (three sevens, 6,000 points). Round 2 begins: Ben plays first; seven cards dealt to each player.');
  assert.equal(newsText(table, [quiet], ctx), '');
  assert.equal(entryText(table, quiet, ctx), 'Ben discarded a clover (higher than the top).');
});
