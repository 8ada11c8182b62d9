// What every game's table shares: people's names, lists and numbers in plain words, and the
// small building blocks of a table's picture. The word functions never touch `document`, so Node
// can import them; the building blocks take the page's `h` and card pictures as `kit`.

/** A seat's name ("Ann"); people count from 1, so a seat without a name is "Player 1". */
export function nameOf(ctx, seat) {
  if (!Number.isInteger(seat)) return 'another player';
  const name = ctx && Array.isArray(ctx.names) ? ctx.names[seat] : null;
  return name ? String(name) : `Player ${Number(seat) + 1}`;
}

/** "you" for the viewer's own seat, the seat's name otherwise. */
export function youOr(ctx, seat) {
  return ctx && ctx.seat !== null && ctx.seat !== undefined && seat === ctx.seat ? 'you' : nameOf(ctx, seat);
}

/** "Ann", "Ann and Ben", "Ann, Ben and Cleo". */
export function listWords(items) {
  const list = items.filter((item) => item !== null && item !== undefined && item !== '').map(String);
  if (list.length <= 1) return list.join('');
  return `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
}

/** 10000 → "10,000"; −45 → "−45". */
export function number(value) {
  const n = Number(value);
  if (!Number.isFinite(n)) return '0';
  return n < 0 ? `−${Math.abs(n).toLocaleString('en')}` : n.toLocaleString('en');
}

/** "1 card", "2 cards". */
export function count(n, one, many = `${one}s`) {
  return `${number(n)} ${n === 1 ? one : many}`;
}

const SMALL = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

/** A number in a sentence: 0 to 12 in words ("seven"), any other in digits ("6,000", "−3").
 * Tables, scores and counters keep their digits (`number`). */
export function numberWords(value) {
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 && n < SMALL.length ? SMALL[n] : number(value);
}

/** `count` in a sentence: "one point", "seven points", "6,000 points". */
export function amount(n, one, many = `${one}s`) {
  return `${numberWords(n)} ${Number(n) === 1 ? one : many}`;
}

export function capitalise(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** Sentences said one after the other, each capitalised and ending with its full stop (or its
 * own "!" or "?"): ["Round 1 ends: Ann wins", "The game is over"] → "Round 1 ends: Ann wins. The
 * game is over." Empty ones are left out. */
export function sentences(parts) {
  return parts
    .map((part) => String(part ?? '').trim())
    .filter(Boolean)
    .map((part) => capitalise(/[.!?][”"’')]*$/.test(part) ? part : `${part}.`))
    .join(' ');
}

/** Clauses joined into one sentence: "Ann played Go 3; Ben's turn". */
export function sentence(clauses) {
  const parts = clauses.filter(Boolean);
  return capitalise(parts.join('; '));
}

/** "Ann wins" / "Ann and Ben share the win". */
export function winnersWords(ctx, winners) {
  const names = (winners || []).map((seat) => nameOf(ctx, seat));
  if (!names.length) return 'nobody wins';
  return names.length === 1 ? `${names[0]} wins` : `${listWords(names)} share the win`;
}

/** The seat after `seat` clockwise among `players`. */
export function nextSeat(seat, players) {
  return Number.isInteger(seat) && players > 0 ? (seat + 1) % players : null;
}

/** Counts of each item: ["a", "b", "a"] → Map {a → 2, b → 1}. */
export function tally(items) {
  const counts = new Map();
  for (const item of items || []) counts.set(item, (counts.get(item) || 0) + 1);
  return counts;
}

/** The list without one copy of `item`. */
export function without(items, item) {
  const list = [...(items || [])];
  const index = list.indexOf(item);
  if (index >= 0) list.splice(index, 1);
  return list;
}

// ---- Pictures (DOM): `kit` is {h, cardFace, dieFace} ----

let headingCounter = 0;

/** A titled part of the table: a section named by its heading. */
export function part(kit, ctx, title, ...children) {
  headingCounter += 1;
  const id = `table-part-${headingCounter}`;
  const level = Math.min(Math.max(Number(ctx.level) || 3, 2), 6);
  return kit.h('section', { class: 'table-part', 'aria-labelledby': id },
    kit.h(`h${level}`, { id }, title), ...children);
}

/** Cards as a named list of pictures; `empty` when there are none. */
export function cardList(kit, game, cards, label, { small = false, empty = 'No cards' } = {}) {
  if (!cards || !cards.length) return kit.h('p', { class: 'table-muted' }, empty);
  return kit.h('ul', { class: `table-cards${small ? ' table-cards-small' : ''}`, 'aria-label': label },
    cards.map((card) => kit.h('li', {}, kit.cardFace(game, card, { small }))));
}

/** A face-down pile or hand of `n` cards: a picture with its count in words. */
export function backs(kit, n, label) {
  const shown = Math.min(n, 5);
  const picture = kit.h('span', { class: 'table-backs', role: 'img', 'aria-label': label },
    Array.from({ length: shown }, () => kit.h('span', { class: 'table-back' })));
  return kit.h('span', { class: 'table-backs-row' }, picture, kit.h('span', { 'aria-hidden': 'true', class: 'table-count' }, number(n)));
}

/** A short line of text. */
export function line(kit, text, className = '') {
  return kit.h('p', { class: className || null }, text);
}

/** A named list of facts ("Ben: 5 cards", ...). */
export function facts(kit, label, items) {
  return kit.h('ul', { class: 'table-facts', 'aria-label': label }, items.filter(Boolean).map((item) => kit.h('li', {}, item)));
}

/** The players with what each has (one row each), the viewer's own row marked. */
export function playersList(kit, ctx, view, detail) {
  const players = view.players || (ctx.names || []).length;
  const acting = new Set(view.to_act || []);
  return kit.h('ul', { class: 'table-players', 'aria-label': 'Players' },
    Array.from({ length: players }, (_, seat) => kit.h('li', {
      class: [seat === ctx.seat ? 'table-me' : '', acting.has(seat) ? 'table-acting' : ''].filter(Boolean).join(' ') || null,
    },
    kit.h('span', { class: 'table-player-name' }, nameOf(ctx, seat), seat === ctx.seat ? ' (you)' : ''),
    acting.has(seat) ? kit.h('span', { class: 'table-badge' }, ' to play') : null,
    kit.h('span', { class: 'table-player-detail' }, detail(seat)))));
}
