// What a phone keeps of its sheets to show them offline (web/store.js): no service, no browser;
// the page_evening_sheets.py walk reloads a sheet offline in Chromium.
//
//   node --test tests/browser/sheet_copies.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import './phone_storage.mjs';
import { rememberSheet, forgetSheet, keepSheetCopy, sheetCopy, keepGames, keptGames } from '../../web/store.js';


const sheet = (id, version = 1) => ({ id, game: 'lucky-jack', version, players: [{ seat: 0, name: 'Mum' }], created_at: '2026-11-28T20:00:00Z' });

test('a sheet this phone keeps is copied as last seen; a sheet it only watches is not', () => {
  rememberSheet(sheet('a'), 'own_a', null);
  keepSheetCopy(sheet('a', 3));
  keepSheetCopy(sheet('b', 2));
  assert.equal(sheetCopy('a').sheet.version, 3);
  assert.equal(sheetCopy('b'), null);
});

test('forgetting a sheet forgets its copy', () => {
  rememberSheet(sheet('a'), 'own_a', null);
  keepSheetCopy(sheet('a'));
  forgetSheet('a');
  assert.equal(sheetCopy('a'), null);
});

test('only the most recently seen sheets are kept, the storage being small', async () => {
  for (let index = 0; index < 14; index += 1) {
    rememberSheet(sheet(`s${index}`), `own_${index}`, null);
    keepSheetCopy(sheet(`s${index}`));
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  assert.equal(sheetCopy('s0'), null);
  assert.equal(sheetCopy('s1'), null);
  assert.equal(sheetCopy('s2').sheet.id, 's2');
  assert.equal(sheetCopy('s13').sheet.id, 's13');
});

test('the list of games is kept for a page opened offline; an empty one is none', () => {
  assert.equal(keptGames(), null);
  keepGames([]);
  assert.equal(keptGames(), null);
  keepGames([{ slug: 'lucky-jack', title: 'Lucky Jack' }]);
  assert.deepEqual(keptGames(), [{ slug: 'lucky-jack', title: 'Lucky Jack' }]);
});
