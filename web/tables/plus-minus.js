// Plus & Minus's table: every player has a Plus stack (adds to the score) and a Minus stack
// (subtracts). A card goes on a stack whose top is the same, one above or one below; an ace or a
// king takes anything on top; a 5 gives two more plays, a 10 swaps two stacks, a king moves two
// players' top Minus cards to their Plus stacks; then one card is passed face down to the left
// (rulebook steps 1–7).
//
// The view's fields left off the table on purpose: `draw_stack` and each stack's `cards` (the
// owner's full view only: "Cards in any Stack (except the top card) may not be examined", step
// 3), `face_up_chosen` (told as who still has to choose), `turns_this_round`, `options`,
// `legal_moves` (the shell's buttons, worded by describeMove).

import { nameOf, youOr, listWords, number, count, capitalise, winnersWords, nextSeat, part, cardList, line, facts, playersList, sentences, amount } from './common.js';

const GAME = 'plus-minus';
const FACES = { A: 'Ace', J: 'Jack', Q: 'Queen', K: 'King' };

export function cardName(card) {
  return FACES[card] || String(card ?? 'a card');
}
/** Step 6: 2–5 are 5 points, 10–K 10, aces 20, 6–9 nothing. */
export function points(card) {
  if (card === 'A') return 20;
  if (['2', '3', '4', '5'].includes(card)) return 5;
  if (['10', 'J', 'Q', 'K'].includes(card)) return 10;
  return 0;
}

/** "your plus stack", "Ben's minus stack". */
export function stackName(ctx, ref) {
  const owner = ref.seat === ctx.seat ? 'your' : `${nameOf(ctx, ref.seat)}’s`;
  return `${owner} ${ref.stack} stack`;
}

function pointsEffect(ctx, card, ref) {
  const value = points(card);
  if (!value) return `${cardName(card)} is worth no points`;
  const who = ref.seat === ctx.seat ? 'you' : nameOf(ctx, ref.seat);
  return ref.stack === 'plus' ? `${number(value)} points for ${who}` : `${number(value)} points off ${ref.seat === ctx.seat ? 'your' : `${nameOf(ctx, ref.seat)}’s`} score`;
}

/** Step 4's king: "the top 2 Minus cards" of each target, or fewer when a stack holds fewer. */
function kingWords(view, ctx, move, whose) {
  const stacks = view.stacks || [];
  if (!move.king_targets.every((target) => stacks[target] && stacks[target].minus)) {
    return `the top 2 cards of ${listWords(move.king_targets.map(whose))} minus stacks go onto the plus stacks`;
  }
  const moving = [];
  const empty = [];
  for (const target of move.king_targets) {
    const onIt = move.stack.seat === target && move.stack.stack === 'minus' ? 1 : 0;
    const n = Math.min(2, stacks[target].minus.size + onIt);
    if (n === 2) moving.push(`the top 2 cards of ${whose(target)} minus stack`);
    else if (n === 1) moving.push(`the only card of ${whose(target)} minus stack`);
    else empty.push(`${target === ctx.seat ? 'you have' : `${nameOf(ctx, target)} has`} no minus card to move`);
  }
  const parts = [];
  if (moving.length) parts.push(`${listWords(moving)} ${moving.length > 1 || moving[0].startsWith('the top 2') ? 'go' : 'goes'} onto the plus stack${moving.length > 1 ? 's' : ''}`);
  parts.push(...empty);
  return parts.join('; ');
}

export function describeMove(move, view, ctx) {
  const seat = ctx.seat ?? view.turn;
  const players = view.players || 3;
  const left = nameOf(ctx, nextSeat(seat, players));
  const drawLeft = view.draw_stack_size ?? 1;
  switch (move.type) {
    case 'play': {
      const on = stackName(ctx, move.stack);
      let title = `Play ${cardName(move.card)} on ${on}`;
      // Where the card ends up: a 10's swap may carry the stack it went on, and a king played on
      // a target's minus stack goes over to plus with the card under it.
      let lands = move.stack;
      if (move.card === '10' && move.swap) {
        const [first, second] = move.swap;
        const same = (ref) => ref.seat === move.stack.seat && ref.stack === move.stack.stack;
        if (same(first)) lands = second;
        else if (same(second)) lands = first;
      }
      if (move.card === 'K' && move.king_targets && move.stack.stack === 'minus' && move.king_targets.includes(move.stack.seat)) {
        lands = { seat: move.stack.seat, stack: 'plus' };
      }
      const after = [pointsEffect(ctx, move.card, lands)];
      if (move.card === '10' && move.swap) {
        title += `, then swap ${stackName(ctx, move.swap[0])} and ${stackName(ctx, move.swap[1])}`;
        after.push(lands === move.stack ? 'the two stacks change places' : `the two stacks change places, so the 10 ends on ${stackName(ctx, lands)}`);
      }
      if (move.card === 'K' && move.king_targets) {
        const whose = (target) => (target === ctx.seat ? 'your' : `${nameOf(ctx, target)}’s`);
        title += `; move ${listWords(move.king_targets.map(whose))} top minus cards to plus`;
        after.push(kingWords(view, ctx, move, whose));
      }
      if (move.card === 'A' || move.card === 'K') after.push('any card may go on it next');
      const plays = view.plays_remaining ?? 1;
      const hand = (view.hands && view.hands[seat]) || [];
      if (move.card === '5') {
        after.push(drawLeft >= 2 ? 'you draw 2 more cards and play twice more' : drawLeft === 1 ? 'you draw the last card and play twice more' : 'you play twice more');
      } else if (plays > 1) {
        after.push(`${count(plays - 1, 'play')} left`);
      } else if (hand.length === 1) {
        after.push(drawLeft === 0 ? 'your hand is empty: your turn ends and the round is scored' : 'your hand is empty: your turn ends');
      } else {
        after.push(`then you pass a card to ${left}`);
      }
      return { title, consequence: capitalise(after.join('; ')), irreversible: true };
    }
    case 'forfeit': {
      const hand = (view.hands && view.hands[seat]) || [];
      const options = view.options || ctx.options || {};
      const passFollows = options.pass_after_forfeit !== false && hand.length > 0;
      return {
        title: 'No card fits: skip my play',
        consequence: passFollows ? `You lose your play; then you pass a card to ${left}` : 'You lose your play and your turn ends',
        irreversible: !passFollows && (view.draw_stack_size ?? 1) === 0,
      };
    }
    case 'pass': {
      const ends = (view.draw_stack_size ?? 1) === 0;
      return {
        title: `Pass ${cardName(move.card)} to ${left}`,
        consequence: ends ? `${left} gets it face down; the draw stack is empty, so the round ends and is scored` : `${left} gets it face down; your turn ends`,
        irreversible: true,
      };
    }
    case 'choose_face_up': {
      const [first, second] = move.cards || [];
      const chosen = (view.face_up_chosen || []).filter(Boolean).length;
      return {
        title: `Lay ${cardName(first)} and ${cardName(second)} face up`,
        consequence: 'The higher starts your plus stack, the lower your minus stack; they are shown when everyone has chosen',
        irreversible: chosen >= (view.players || 3) - 1,
      };
    }
    default:
      return { title: 'Play', consequence: '', irreversible: false };
  }
}

function roundScores(points, ctx) {
  return (points || []).map((value, seat) => `${nameOf(ctx, seat)} ${number(value)}`).join(', ');
}

export function describeEvents(entry, ctx) {
  const clauses = [];
  const events = entry.events || [];
  const dealt = events.filter((event) => event.type === 'dealt');
  if (dealt.length) {
    const faceUp = dealt.filter((event) => event.plus).map((event) => `${nameOf(ctx, event.seat)} plus ${cardName(event.plus)}, minus ${cardName(event.minus)}`);
    const mine = dealt.find((event) => event.seat === ctx.seat && event.hand);
    clauses.push(`cards dealt${faceUp.length ? `; face up: ${faceUp.join('; ')}` : ''}${mine ? `; your hand: ${listWords(mine.hand.map(cardName))}` : ''}`);
  }
  for (const event of events) {
    const who = nameOf(ctx, event.seat);
    switch (event.type) {
      case 'round_started': clauses.unshift(`round ${event.round} begins: ${nameOf(ctx, event.dealer)} deals and ${nameOf(ctx, event.first)} plays first`); break;
      case 'dealt': break;
      case 'face_up_chosen': clauses.push(`${who} laid two cards face down to turn up`); break;
      case 'face_up_revealed': clauses.push(`${who}’s cards turned up: plus ${cardName(event.plus)}, minus ${cardName(event.minus)}`); break;
      case 'drew': clauses.push(`${who} drew ${event.cards && event.cards.length ? listWords(event.cards.map(cardName)) : count(event.count, 'card')}${event.reason === 'five' ? ' after a 5' : ''}`); break;
      case 'played': clauses.push(`${who} played ${cardName(event.card)} on ${event.stack.seat === event.seat ? `their own ${event.stack.stack}` : `${nameOf(ctx, event.stack.seat)}’s ${event.stack.stack}`} stack`); break;
      case 'swapped': clauses.push(`${who} swapped ${listWords((event.stacks || []).map((ref) => `${nameOf(ctx, ref.seat)}’s ${ref.stack} stack`))}`); break;
      case 'minus_to_plus': clauses.push(`${count(event.count, 'card')} moved from ${nameOf(ctx, event.target)}’s minus stack to the plus stack${event.top ? ` (${cardName(event.top)} on top)` : ''}`); break;
      case 'forfeited': clauses.push(`${who} could not play`); break;
      case 'passed': clauses.push(`${who} passed ${event.card ? cardName(event.card) : 'a card'} to ${nameOf(ctx, event.to)}`); break;
      case 'round_ended': clauses.push(`round ${event.round} ends: ${roundScores(event.points, ctx)}`); break;
      case 'game_ended': clauses.push(`the game is over: ${winnersWords(ctx, event.winners)}`); break;
      default: break;
    }
  }
  return clauses;
}

export function quietMove(entry, ctx) {
  return `${nameOf(ctx, entry.seat)} played`;
}

export function announcement(entry, ctx) {
  const parts = [];
  for (const event of entry.events || []) {
    if (event.type === 'round_ended') parts.push(`Round ${event.round} ends: ${roundScores(event.points, ctx)}`);
    if (event.type === 'game_ended') parts.push(`The game is over: ${winnersWords(ctx, event.winners)}${event.totals && event.winners && event.winners.length ? ` with ${amount(event.totals[event.winners[0]], 'point')}` : ''}`);
  }
  return parts.length ? sentences(parts) : null;
}

function status(view, ctx) {
  const who = capitalise(youOr(ctx, view.turn));
  const mine = view.turn === ctx.seat;
  switch (view.phase) {
    case 'over': return 'The game is over.';
    case 'deal': return `Waiting for round ${view.round}’s cards to be dealt.`;
    case 'choose': return `Everyone picks two cards to lay face up: ${listWords((view.to_act || []).map((seat) => youOr(ctx, seat)))} still to choose.`;
    case 'drawing': return `Waiting for ${youOr(ctx, view.turn)} to draw.`;
    case 'play': return `${mine ? 'Your' : `${nameOf(ctx, view.turn)}’s`} turn: ${count(view.plays_remaining ?? 1, 'card')} to play on a stack.`;
    case 'pass': return `${who} ${mine ? 'pass' : 'passes'} a card face down to ${youOr(ctx, nextSeat(view.turn, view.players || 3))}.`;
    default: return '';
  }
}

function stackPicture(kit, ctx, view, seat, kind) {
  const stack = ((view.stacks || [])[seat] || {})[kind] || { size: 0, top: null };
  const label = `${seat === ctx.seat ? 'Your' : `${nameOf(ctx, seat)}’s`} ${kind} stack`;
  return kit.h('div', { class: `table-pile table-stack-${kind}`, role: 'group', 'aria-label': label },
    kit.h('p', { class: 'table-pile-name' }, kind === 'plus' ? 'Plus (adds)' : 'Minus (takes away)'),
    stack.top ? kit.cardFace(GAME, stack.top, { small: seat !== ctx.seat }) : null,
    kit.h('p', { class: 'table-muted' }, stack.size ? count(stack.size, 'card') : 'Empty'));
}

export function render(view, ctx, kit) {
  const h = kit.h;
  const seat = ctx.seat;
  const players = view.players || 3;
  const sections = [];
  if (seat !== null && seat !== undefined && view.hands && view.hands[seat]) {
    sections.push(part(kit, ctx, 'Your hand', cardList(kit, GAME, view.hands[seat], 'Your cards', { empty: 'No cards in your hand' })));
  }
  sections.push(line(kit, status(view, ctx), 'table-status'));
  const order = seat !== null && seat !== undefined ? [seat, ...Array.from({ length: players }, (_, i) => i).filter((i) => i !== seat)] : Array.from({ length: players }, (_, i) => i);
  sections.push(part(kit, ctx, 'Stacks',
    line(kit, `Draw stack: ${count(view.draw_stack_size || 0, 'card')}`),
    order.map((player) => h('div', { class: 'table-stacks' },
      h('p', { class: 'table-pile-name' }, player === seat ? 'Your stacks' : `${nameOf(ctx, player)}’s stacks`),
      h('div', { class: 'table-piles' }, stackPicture(kit, ctx, view, player, 'plus'), stackPicture(kit, ctx, view, player, 'minus'))))));
  sections.push(part(kit, ctx, `Round ${view.round || 1} of ${view.rounds || players}`,
    playersList(kit, ctx, view, (player) => ` ${count((view.hand_sizes || [])[player] ?? 0, 'card')} in hand, ${number((view.totals || [])[player] ?? 0)} points${player === view.dealer ? ', dealer' : ''}`),
    (view.results || []).length ? facts(kit, 'Rounds played', view.results.map((result) => `Round ${result.round}: ${roundScores(result.points, ctx)}`)) : null));
  return sections;
}

/** Why an irreversible move cannot be taken back, in a sentence for its confirmation. */
export function why(move, view, ctx) {
  const seat = ctx.seat ?? view.turn;
  if (move.type === 'play') return 'Everyone sees the card from your hand';
  if (move.type === 'pass') return `${nameOf(ctx, nextSeat(seat, view.players || 3))} sees the card`;
  if (move.type === 'choose_face_up') return 'Everyone’s chosen cards are turned face up';
  return 'The round ends and every hand is counted';
}

export const plusMinus = { why, cardName, describeMove, describeEvents, quietMove, announcement, render };
