// Lucky Luau's table: each turn a player draws one card, face down or face up, and strings it on
// the right end of their lei (a face-down card may be tossed back face up instead); a Knife, a
// Fish Hook and a Spacer each serve once; when the centre is empty the leis are scored (rulebook
// "How to Play", "Scoring").
//
// The view's fields left off the table on purpose: `face_down` (the owner's full view only: the
// pile's make-up), each seat's `guests` and `rainbows` until the end (then in the score's lines),
// `options` (the match's settings are the shell's), `legal_moves` (the shell's buttons).

import { nameOf, youOr, listWords, number, count, capitalise, winnersWords, part, cardList, line, facts, playersList, sentences } from './common.js';

const GAME = 'lucky-luau';
const NAMES = {
  yellow: 'Yellow Flower', red: 'Red Flower', blue: 'Blue Flower', pink: 'Pink Flower',
  purple: 'Purple Flower', orange: 'Orange Flower', green: 'Green Flower', rainbow: 'Rainbow Flower',
  ti: 'Ti Leaf', mega: 'Mega Leaf', kukui: 'Kukui Nut', hook: 'Fish Hook', spacer: 'Spacer',
};
const ORDER = ['yellow', 'red', 'blue', 'pink', 'purple', 'orange', 'green', 'rainbow', 'ti', 'mega', 'kukui'];

export function cardName(card) {
  return NAMES[card] || 'card';
}
const the = (card) => `the ${cardName(card)}`;
const a = (card) => `${/^[aeiou]/i.test(cardName(card)) ? 'an' : 'a'} ${cardName(card)}`;

function lei(view, seat) {
  return ((view.seats || [])[seat] || {}).lei || [];
}

/** Whether the centre (face down and face up) is empty once the pending card is taken. */
function centreEmpty(view) {
  const faceUp = Object.values(view.face_up || {}).reduce((sum, n) => sum + n, 0);
  return (view.face_down_count || 0) === 0 && faceUp === 0;
}

export function describeMove(move, view, ctx) {
  const seat = ctx.seat ?? view.turn;
  const players = view.players || 2;
  const next = nameOf(ctx, (view.turn + 1) % players);
  const mine = lei(view, seat);
  const pending = view.pending;
  const serverChance = ctx.randomness !== 'table';
  switch (move.type) {
    case 'draw_face_down':
      return { title: 'Draw a face-down card', consequence: `Only you see it; then string it on your lei or toss it back face up (${count(view.face_down_count || 0, 'card')} face down)`, irreversible: serverChance };
    case 'draw_face_up':
      return { title: `Take the face-up ${cardName(move.card)}`, consequence: 'A face-up card must be strung on your lei', irreversible: false };
    case 'string': {
      const card = pending && pending.card;
      const onSpacer = move.spacer !== null && move.spacer !== undefined;
      const place = onSpacer ? move.spacer + 1 : mine.length + 1;
      const title = `String ${card ? the(card) : 'the card'} ${onSpacer ? `on your Spacer at place ${place}` : `at the end of your lei (place ${place})`}`;
      const last = centreEmpty(view);
      return {
        title,
        consequence: last ? 'It stays there for good; the centre is then empty, and everyone counts their lei' : `It stays there for good; your turn ends, then ${next} plays`,
        irreversible: Boolean(pending && !pending.face_up),
      };
    }
    case 'toss': {
      const card = pending && pending.card;
      return { title: `Toss ${card ? the(card) : 'the card'} back face up`, consequence: `Anyone may take it on a later turn; your turn ends, then ${next} plays`, irreversible: true };
    }
    case 'place_spacer':
      return { title: `Place your Spacer at place ${mine.length + 1}`, consequence: 'It keeps the place free for a card you draw later; you have one Spacer', irreversible: false };
    case 'place_hook':
      return { title: `Place your Fish Hook at place ${mine.length + 1}`, consequence: 'It scores 10 if it ends in the middle of your lei, 5 if one place off; you have one Fish Hook', irreversible: false };
    case 'knife': {
      const slot = mine[move.index];
      return { title: `Cut ${slot ? the(slot) : 'a card'} at place ${move.index + 1}`, consequence: 'It leaves the game and your lei closes up; you have one Knife', irreversible: false };
    }
    case 'finish': {
      const others = (view.seats || []).filter((player, other) => other !== seat && !player.finished).length;
      // Guest bonuses count on side A (docs/rules/lucky-luau.md, "Scoring").
      const guests = (move.guests || []).reduce((sum, pair) => sum + (Number(pair && pair[0]) || 0), 0);
      const bonus = move.guests && move.guests.length ? `with ${count(guests, 'Guest bonus point')}` : 'with no Guest bonus';
      return {
        title: 'My lei is done',
        consequence: others ? `Your lei is counted as it is, ${bonus}; you cannot cut any more` : `Your lei is counted as it is, ${bonus}; you are the last, so the game ends`,
        irreversible: others === 0,
      };
    }
    default:
      return { title: 'Play', consequence: '', irreversible: false };
  }
}

export function describeEvents(entry, ctx) {
  const clauses = [];
  for (const event of entry.events || []) {
    const who = nameOf(ctx, event.seat);
    switch (event.type) {
      case 'drawing_face_down': clauses.push(`${who} drew a face-down card`); break;
      case 'drew':
        if (event.face_up) clauses.push(`${who} took the face-up ${cardName(event.card)}`);
        else if (event.card) clauses.push(`the card ${who} drew is ${a(event.card)}`);
        else clauses.push(`only ${who} sees the card drawn`);
        break;
      case 'strung': clauses.push(`${who} strung ${a(event.card)} at place ${event.index + 1}${event.filled_spacer ? ', on the Spacer' : ''}`); break;
      case 'tossed': clauses.push(`${who} tossed ${a(event.card)} back face up`); break;
      case 'placed': clauses.push(`${who} placed the ${cardName(event.tool)} at place ${event.index + 1}`); break;
      case 'cut': clauses.push(`${who} cut ${the(event.slot)} at place ${event.index + 1} with the Knife`); break;
      case 'turn_started': clauses.push(`${who}’s turn`); break;
      case 'centre_empty': clauses.push('the centre is empty: time to count the leis'); break;
      case 'finished': clauses.push(`${who}’s lei is done`); break;
      case 'game_ended': clauses.push(`the game is over: ${winnersWords(ctx, event.winners)}${scores(event, ctx)}`); break;
      default: break;
    }
  }
  return clauses;
}

function scores(event, ctx) {
  const totals = event.totals || [];
  return totals.length ? ` (${totals.map((total, seat) => `${nameOf(ctx, seat)} ${number(total)}`).join(', ')})` : '';
}

export function quietMove(entry, ctx) {
  return `${nameOf(ctx, entry.seat)} drew a card`;
}

export function announcement(entry, ctx) {
  const parts = [];
  for (const event of entry.events || []) {
    if (event.type === 'centre_empty') parts.push('The centre is empty: time to count the leis');
    if (event.type === 'game_ended') parts.push(`The game is over: ${winnersWords(ctx, event.winners)}${scores(event, ctx)}`);
  }
  return parts.length ? sentences(parts) : null;
}

function status(view, ctx) {
  switch (view.phase) {
    case 'over': return 'The game is over.';
    case 'end': {
      const left = (view.seats || []).map((player, seat) => (player.finished ? null : youOr(ctx, seat))).filter(Boolean);
      return `The centre is empty: ${listWords(left)} may still cut a card, then say their lei is done.`;
    }
    default: {
      if (view.chance) return `Waiting for ${youOr(ctx, view.chance.seat)} to draw a face-down card.`;
      const mine = view.turn === ctx.seat;
      if (view.pending) {
        const card = view.pending.card ? cardName(view.pending.card) : 'a face-down card';
        return mine ? `You drew ${card}: ${view.pending.face_up ? 'string it' : 'string it or toss it back'}.` : `${nameOf(ctx, view.turn)} drew ${card} and must ${view.pending.face_up ? 'string it' : 'string it or toss it back'}.`;
      }
      return mine ? 'Your turn: draw a card.' : `${nameOf(ctx, view.turn)}’s turn.`;
    }
  }
}

function tools(player) {
  const left = [];
  if (!player.knife_used) left.push('Knife');
  if (!player.hook_used) left.push('Fish Hook');
  if (!player.spacer_used) left.push('Spacer');
  return left.length ? `tools left: ${listWords(left)}` : 'no tools left';
}

function leiPart(kit, ctx, view, seat) {
  const player = (view.seats || [])[seat] || {};
  const score = ((view.score || {}).seats || [])[seat];
  const title = seat === ctx.seat ? 'Your lei' : `${nameOf(ctx, seat)}’s lei`;
  return part(kit, ctx, title,
    kit.h('ol', { class: 'table-cards table-lei', 'aria-label': `${title}, left to right` },
      (player.lei || []).map((slot, index) => kit.h('li', {}, kit.cardFace(GAME, slot, { small: seat !== ctx.seat }),
        score && score.slots && score.slots[index] ? kit.h('span', { class: 'table-slot-points' }, `${number(score.slots[index].points)}`) : null))),
    (player.lei || []).length ? null : line(kit, 'No cards strung yet', 'table-muted'),
    line(kit, `${score ? `${count(score.total, 'point')} so far` : ''}${score ? '; ' : ''}${tools(player)}${player.cut ? `; cut: ${cardName(player.cut)}` : ''}${player.finished ? '; done' : ''}`, 'table-muted'));
}

export function render(view, ctx, kit) {
  const h = kit.h;
  const seat = ctx.seat;
  const sections = [];
  const players = view.players || (view.seats || []).length;
  if (seat !== null && seat !== undefined && (view.seats || [])[seat]) {
    sections.push(leiPart(kit, ctx, view, seat));
    if (view.pending && view.turn === seat && view.pending.card) {
      sections.push(h('div', { class: 'table-pending' }, line(kit, 'The card you drew:'), cardList(kit, GAME, [view.pending.card], 'The card you drew')));
    }
  }
  sections.push(line(kit, status(view, ctx), 'table-status'));
  const faceUp = ORDER.flatMap((card) => Array.from({ length: (view.face_up || {})[card] || 0 }, () => card));
  sections.push(part(kit, ctx, 'The centre',
    line(kit, `${count(view.face_down_count || 0, 'card')} face down`),
    faceUp.length ? cardList(kit, GAME, faceUp, 'Face-up cards anyone may take') : line(kit, 'No face-up cards', 'table-muted')));
  sections.push(part(kit, ctx, 'Players',
    playersList(kit, ctx, view, (player) => ` ${count((view.score && view.score.totals ? view.score.totals[player] : 0) ?? 0, 'point')}, ${count(lei(view, player).length, 'card')} on the lei`)));
  for (let other = 0; other < players; other += 1) if (other !== seat) sections.push(leiPart(kit, ctx, view, other));
  if (view.phase === 'over' && view.score) {
    // Card by card, each lei's score is long: folded, one per player, the total in the summary.
    sections.push(part(kit, ctx, 'How the leis scored',
      (view.score.seats || []).map((scored) => h('details', { class: 'table-details' },
        h('summary', {}, `${nameOf(ctx, scored.seat)}: ${count(scored.total, 'point')}`),
        facts(kit, `${nameOf(ctx, scored.seat)}’s score`, scored.lines || [])))));
  }
  return sections;
}

/** Why an irreversible move cannot be taken back, in a sentence for its confirmation. */
export function why(move) {
  if (move.type === 'draw_face_down') return 'The card is drawn at once';
  if (move.type === 'string' || move.type === 'toss') return 'Everyone sees the card';
  return 'It ends the game';
}

export const luckyLuau = { why, cardName, describeMove, describeEvents, quietMove, announcement, render };
