// Each game's table for a hosted match: how its view looks, what each legal move will do, and
// its log in plain words. STUB: one generic table until the games' own are written.

import { h } from '../dom.js';

const generic = {
  /** The table as a seat (or a spectator) sees it: hands, piles, dice... */
  renderTable(view) {
    return h('pre', {}, JSON.stringify(view, null, 1));
  },
  /** A legal move as a button's words: `{title, consequence, irreversible}`. */
  describeMove(move) {
    return { title: move.type, consequence: '', irreversible: false };
  },
  /** One log entry in a sentence. */
  describeEntry(entry) {
    return JSON.stringify(entry.move || entry.events || entry);
  },
};

export function tableFor(game) {
  void game;
  return generic;
}
