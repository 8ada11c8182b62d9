// What the page makes of a household's keys and of a stream it reads itself (web/household.js,
// web/api.js): no service needed; the page_households.py walk checks the rest in a browser.
//
//   node --test tests/browser/households.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sseEvents } from '../../web/api.js';
import { roleOf, possessive } from '../../web/household.js';

test('complete events are read, the one still arriving is kept for later', () => {
  const { events, rest } = sseEvents('event: entry\nid: 3\ndata: {"seq":3}\n\nevent: view\ndata: {"ver');
  assert.deepEqual(events, [{ name: 'entry', data: '{"seq":3}' }]);
  assert.equal(rest, 'event: view\ndata: {"ver');
  const next = sseEvents(`${rest}sion":3}\n\n`);
  assert.deepEqual(next.events, [{ name: 'view', data: '{"version":3}' }]);
  assert.equal(next.rest, '');
});

test('a heartbeat is no event; an unnamed one is a message; CRLF reads as LF', () => {
  assert.deepEqual(sseEvents(': heartbeat\n\n').events, []);
  assert.deepEqual(sseEvents('data: a\r\ndata: b\r\n\r\n').events, [{ name: 'message', data: 'a\nb' }]);
  assert.deepEqual(sseEvents(': heartbeat\nevent: end\ndata:{}\n\n').events, [{ name: 'end', data: '{}' }]);
});

test('a key says its role by its prefix; only an owner key keeps score', () => {
  assert.equal(roleOf('hh_owner_abc'), 'owner');
  assert.equal(roleOf('hh_reader_abc'), 'reader');
  assert.equal(roleOf('something else'), 'reader');
});

test('a household’s games read as its name’s', () => {
  assert.equal(possessive('The Lees'), 'The Lees’');
  assert.equal(possessive('Our household'), 'Our household’s');
});
