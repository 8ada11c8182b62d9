// Each game's table for a hosted match: how its view looks, what each legal move will do, and
// its log in plain words.
//
//   tableFor(game) → {renderTable(view, ctx) → Element, describeMove(move, view, ctx) →
//   {title, consequence, irreversible, because?}, describeEntry(entry, ctx) → string,
//   announcement(entry, ctx) → string | null}
//
// `ctx = {names, seat, game, options}`: `seat` is the viewer's seat, null for a spectator. Two
// optional fields sharpen the words: `randomness` (the match's `"server"` or `"table"`: in a
// server match a move that draws or rolls can never be taken back, since the draw or roll comes
// with it) and `level` (the heading level of the table's parts: 3, under the shell's h2, unless told).
//
// describeMove, describeEntry and announcement never touch `document` (Node's tests import
// them); only renderTable builds elements, with the page's `dom.js` and `cards.js`, loaded here
// only in a browser (`ctx.h` and `ctx.cards` may stand in for them).
//
// Each game's words come from its printed rulebook (/work/shared/rules/) and docs/rules/*.md,
// and are derived from the view: where the view cannot tell what a move will do, they say less.
// `irreversible` follows docs/contract.md, "Mending a match": a move that shows a hidden card
// (each game's `reveals` in src/games/*/rules.rs), one whose draw, roll or next deal comes with
// it in a server match (no take-back reaches past chance), or one that ends the game.

import { nameOf, sentence } from './common.js';
import { luckyJack } from './lucky-jack.js';
import { luckPlus } from './luck-plus.js';
import { luckyDice } from './lucky-dice.js';
import { luckyLuau } from './lucky-luau.js';
import { plusMinus } from './plus-minus.js';

const GAMES = {
  'lucky-jack': luckyJack,
  'luck-plus': luckPlus,
  'lucky-dice': luckyDice,
  'lucky-luau': luckyLuau,
  'plus-minus': plusMinus,
};

// The page's DOM helpers and card pictures, in a browser only.
const browser = typeof document !== 'undefined';
const dom = browser ? await import('../dom.js') : null;
const cardsModule = browser ? await import('../cards.js') : null;

function kitFor(ctx) {
  const cards = ctx.cards || cardsModule;
  return {
    h: ctx.h || dom.h,
    cardFace: (game, card, options) => cards.cardFace(game, card, options || {}),
    dieFace: (value) => cards.dieFace(value),
  };
}

function withDefaults(ctx, game) {
  return { names: [], seat: null, options: null, ...ctx, game: (ctx && ctx.game) || game };
}

/** One log entry in a sentence: "Ann discarded a lemon (lower than the top); Ann drew 2 cards". */
function entrySentence(rules, entry, ctx) {
  if (entry.takes_back !== null && entry.takes_back !== undefined) {
    return `${nameOf(ctx, entry.seat)} took back a move (move ${entry.takes_back})`;
  }
  const clauses = [];
  if (entry.corrects !== null && entry.corrects !== undefined) {
    const by = entry.reported_by && entry.reported_by !== 'owner' && entry.reported_by.seat !== undefined
      ? nameOf(ctx, entry.reported_by.seat) : 'The match’s owner';
    clauses.push(`${by} corrected what chance gave at move ${entry.corrects}`);
  }
  const told = rules.describeEvents(entry, ctx);
  if (told.length) clauses.push(...told);
  else if (entry.seat !== null && entry.seat !== undefined) clauses.push(rules.quietMove(entry, ctx));
  else if (!clauses.length) clauses.push('The table dealt, drew or rolled');
  return sentence(clauses);
}

export function tableFor(game) {
  const rules = GAMES[game];
  if (!rules) throw new Error(`No table for the game ${game}`);
  return {
    /** The table as a seat (or a spectator) sees it: hands, piles, dice, scores, whose turn. */
    renderTable(view, ctx = {}) {
      const full = withDefaults(ctx, game);
      const kit = kitFor(full);
      return kit.h('div', { class: `game-table game-table-${game}` }, rules.render(view || {}, full, kit));
    },
    /** A legal move as a button's words: `{title, consequence, irreversible}`, and for an
     * irreversible move `because`: why it cannot be taken back ("Everyone sees the card you
     * discard"), for its confirmation. */
    describeMove(move, view, ctx = {}) {
      const full = withDefaults(ctx, game);
      const words = rules.describeMove(move, view || {}, full);
      return words.irreversible ? { ...words, because: rules.why(move, view || {}, full, words) } : words;
    },
    /** One log entry in a plain sentence. */
    describeEntry(entry, ctx = {}) {
      return entrySentence(rules, entry, withDefaults(ctx, game));
    },
    /** The big moment an entry holds (a round ends, a jackpot, the game ends), or null. */
    announcement(entry, ctx = {}) {
      if (entry.takes_back !== null && entry.takes_back !== undefined) return null;
      return rules.announcement(entry, withDefaults(ctx, game));
    },
    /** A card of the game in words ("Go 7", "Lemon", "Queen"). */
    cardName: rules.cardName,
  };
}

/** `announcement(entry, ctx)` with the game taken from `ctx.game`. */
export function announcement(entry, ctx) {
  return tableFor(ctx.game).announcement(entry, ctx);
}

/** `describeEntry(entry, ctx)` with the game taken from `ctx.game`. */
export function describeEntry(entry, ctx) {
  return tableFor(ctx.game).describeEntry(entry, ctx);
}

/** `describeMove(move, view, ctx)` with the game taken from `ctx.game`. */
export function describeMove(move, view, ctx) {
  return tableFor(ctx.game).describeMove(move, view, ctx);
}
