// Luck Plus's table: hands dealt face up, a match pile, two dice. Cards match both dice, their
// total or the top of the match pile; GO and TRANSFER cards make you roll again, a STOP or a LUCK
// PLUS ends the turn, a drawn TRANSFER may be given away (rulebook "TYPES OF CARDS").
//
// The view's fields left off the table on purpose: `draw_pile` (the owner's full view only: the
// pile's make-up, which nobody at a real table counts), `had_turn` (bookkeeping; `first_turn`
// feeds the LUCK OUT words), `options` other than the scoring and target (the match's settings
// are the shell's), `legal_moves` (the shell's buttons, worded by describeMove).

import { nameOf, youOr, listWords, number, count, capitalise, winnersWords, without, part, cardList, backs, line, facts, playersList, sentences } from './common.js';

const GAME = 'luck-plus';
const KINDS = { GO: 'Go', STOP: 'Stop', TR: 'Transfer', TP: 'Transfer Plus' };

/** "GO-7" → "Go 7", "TP-3" → "Transfer Plus 3", "DBL" → "Doubles", "LP" → "Luck Plus". */
export function cardName(card) {
  if (card === 'DBL') return 'Doubles';
  if (card === 'LP') return 'Luck Plus';
  const [kind, value] = String(card).split('-');
  return KINDS[kind] && value ? `${KINDS[kind]} ${value}` : 'a card';
}
function names(cards) {
  return listWords((cards || []).map(cardName));
}
/** A card's number, or null for DOUBLES and LUCK PLUS. */
export function numberOf(card) {
  const value = Number(String(card).split('-')[1]);
  return Number.isInteger(value) ? value : null;
}
export function points(card) {
  if (card === 'DBL') return 15;
  if (card === 'LP') return 25;
  return numberOf(card) || 0;
}
const isStop = (card) => String(card).startsWith('STOP-');

/** The next seat after `seat` still in the hand. */
function nextInHand(view, seat) {
  const players = view.players || 2;
  const out = new Set((view.out || []).map((item) => item.seat));
  for (let step = 1; step <= players; step += 1) {
    const candidate = (seat + step) % players;
    if (!out.has(candidate)) return candidate;
  }
  return (seat + 1) % players;
}

function basisWords(group, view) {
  const dice = view.dice || [];
  const top = view.match_top;
  switch (group.basis) {
    case 'top': return top ? `Matches the ${cardName(top)} on the match pile` : 'Matches the top of the match pile';
    case 'pair': return dice.length === 2 ? `Matches both dice, ${dice[0]} and ${dice[1]}` : 'Matches both dice';
    case 'split': return dice.length === 2 && top ? `With the ${numberOf(top)} on top, matches the dice ${dice[0]} and ${dice[1]}` : 'Matches the dice with the top card';
    case 'total': return dice.length === 2 ? `Matches the dice total, ${dice[0] + dice[1]}` : 'Matches the dice total';
    case 'doubles': return 'Matches the doubles you rolled';
    case 'single_die': return 'Your last card matches one die';
    default: return 'A match';
  }
}

/** What going out does to the scores, from the hands on the table. */
function goingOut(view, seat, ctx, rest) {
  const options = view.options || ctx.options || {};
  const scoring = options.scoring || 'hands';
  const luckOut = Boolean(view.first_turn);
  const target = view.target || options.target;
  const totals = view.totals || [];
  const hands = (view.hands || []).map((hand, other) => (other === seat ? [] : hand || []));
  for (const [other, cards] of Object.entries(rest || {})) hands[other] = cards;
  const others = hands.reduce((sum, hand) => sum + hand.reduce((total, card) => total + points(card), 0), 0);
  const fullRound = luckOut && options.luck_out_full_round;
  let words = luckOut ? 'You go out on your first turn: a LUCK OUT' : 'You go out';
  let ends = false;
  if (fullRound) {
    words += '; everyone else gets one more turn before the hand ends';
  } else if (scoring === 'hands') {
    words += ' and win the hand';
    ends = target && (totals[seat] || 0) + 1 >= target;
  } else if (scoring === 'points_to_winner') {
    const gained = others + (luckOut ? 30 : 0);
    words += ` and score the ${number(gained)} points left in the other hands${luckOut ? ' with the 30-point bonus' : ''}`;
    ends = target && (totals[seat] || 0) + gained >= target;
  } else {
    words += '; everyone else takes the points left in their hand';
    ends = target && hands.some((hand, other) => other !== seat && (totals[other] || 0) + hand.reduce((total, card) => total + points(card), 0) >= target);
  }
  if (ends) words += '; that ends the game';
  // The hand's end brings the next deal; in a server match it comes at once, and a take-back
  // never reaches past chance.
  const final = Boolean(ends) || (!fullRound && ctx.randomness !== 'table');
  return { words, ends: final };
}

export function describeMove(move, view, ctx) {
  const seat = ctx.seat ?? view.turn;
  const hand = (view.hands && view.hands[seat]) || [];
  const next = nameOf(ctx, nextInHand(view, seat));
  const serverChance = ctx.randomness !== 'table';
  switch (move.type) {
    case 'roll': {
      const again = view.phase === 'matching' || view.phase === 'must_roll';
      return {
        title: again ? 'Roll the dice again' : 'Roll the dice',
        consequence: view.phase === 'pre_roll' && (view.dice || []).length && view.match_top
          ? 'New dice to match; the last roll can no longer be matched'
          : 'New dice to match, or else you draw a card',
        irreversible: serverChance,
      };
    }
    case 'play': {
      const group = (move.groups || [])[0] || { cards: [] };
      const placed = (move.groups || []).flatMap((item) => item.cards || []);
      let rest = hand;
      for (const card of placed) rest = without(rest, card);
      const title = `Play ${names(placed)}`;
      const basis = (move.groups || []).length > 1 ? 'Several matches' : basisWords(group, view);
      if (!rest.length && hand.length) {
        const out = goingOut(view, seat, ctx);
        return { title, consequence: `${basis}. ${out.words}`, irreversible: out.ends };
      }
      if (isStop(placed[placed.length - 1])) {
        return { title, consequence: `${basis}. A Stop card last: your turn ends, then ${next} plays`, irreversible: false };
      }
      return { title, consequence: `${basis}. Then you must roll again`, irreversible: false };
    }
    case 'luck_plus': {
      const bonus = move.bonus || [];
      let rest = without(hand, 'LP');
      for (const card of bonus) rest = without(rest, card);
      const title = bonus.length ? `Play Luck Plus with ${names(bonus)} as a bonus` : 'Play Luck Plus with no bonus';
      if (!rest.length && hand.length) {
        const out = goingOut(view, seat, ctx);
        return { title, consequence: out.words, irreversible: out.ends };
      }
      return {
        title,
        consequence: bonus.length ? `Your turn ends, then ${next} plays` : `Your turn ends; ${next} must then play any one card (and others of its number) as a bonus, and that is their whole turn`,
        irreversible: false,
      };
    }
    case 'draw':
      return { title: 'Draw a card', consequence: 'If you can play it, your turn goes on; if not, you keep it and your turn ends', irreversible: serverChance };
    case 'transfer': {
      const given = [move.card, ...(move.extra || [])];
      let rest = hand;
      for (const card of given) rest = without(rest, card);
      const to = nameOf(ctx, move.to);
      const title = `Give ${names([move.card])} to ${to}${(move.extra || []).length ? ` with ${names(move.extra)}` : ''}`;
      const gets = `${to} takes ${count(given.length, 'card')} more`;
      if (!rest.length && hand.length) {
        const after = { ...Object.fromEntries((view.hands || []).map((cards, other) => [other, cards || []])) };
        after[move.to] = [...(after[move.to] || []), ...given];
        const out = goingOut(view, seat, ctx, after);
        return { title, consequence: `${gets}. ${out.words}`, irreversible: out.ends };
      }
      return { title, consequence: `${gets}; then you must roll again`, irreversible: false };
    }
    case 'keep': {
      const card = view.drawn;
      return { title: card ? `Keep ${cardName(card)}` : 'Keep the drawn card', consequence: `It stays in your hand; your turn ends, then ${next} plays`, irreversible: false };
    }
    case 'bonus': {
      const cards = move.cards || [];
      let rest = hand;
      for (const card of cards) rest = without(rest, card);
      const title = `Play ${names(cards)} as your bonus`;
      if (!rest.length && hand.length) {
        const out = goingOut(view, seat, ctx);
        return { title, consequence: out.words, irreversible: out.ends };
      }
      return { title, consequence: `That is your whole turn, then ${next} plays`, irreversible: false };
    }
    default:
      return { title: 'Play', consequence: '', irreversible: false };
  }
}

const BASIS_SHORT = {
  top: 'on the top card', pair: 'on both dice', split: 'on a die with the top card', total: 'on the dice total',
  doubles: 'on the doubles', single_die: 'on one die',
};
const TURN_END = {
  stop: 'a Stop card', luck_plus: 'Luck Plus', forced_bonus: 'the bonus', kept: 'the drawn card was kept',
  unplayable: 'the drawn card could not be played', draw_void: 'nothing could be drawn', went_out: 'going out',
};

function handEnded(result, ctx) {
  const outs = (result.out || []).map((item) => `${nameOf(ctx, item.seat)}${item.luck_out ? ' (LUCK OUT)' : ''}`);
  if (((ctx.options || {}).scoring || 'hands') === 'hands') {
    return `hand ${result.hand} ends: ${listWords(outs) || 'nobody'} ${outs.length > 1 ? 'each win' : 'wins'} it`;
  }
  const scored = (result.points || []).map((value, seat) => (value ? `${nameOf(ctx, seat)} ${value > 0 ? '+' : ''}${number(value)}` : null)).filter(Boolean);
  return `hand ${result.hand} ends: ${listWords(outs) || 'nobody'} went out${scored.length ? `; points: ${scored.join(', ')}` : ''}`;
}

export function describeEvents(entry, ctx) {
  const clauses = [];
  const events = entry.events || [];
  const dealt = events.filter((event) => event.type === 'dealt');
  for (const event of events) {
    const who = nameOf(ctx, event.seat);
    switch (event.type) {
      case 'hand_started': clauses.push(`hand ${event.hand} begins: ${nameOf(ctx, event.dealer)} deals and ${nameOf(ctx, event.first)} plays first`); break;
      case 'dealt': if (event === dealt[0]) clauses.push(`${count(event.cards.length, 'card')} dealt face up to each player`); break;
      case 'put_under': clauses.push('a Luck Plus card turned up went under the draw pile'); break;
      case 'flipped': clauses.push(`the match pile starts with ${cardName(event.card)}`); break;
      case 'turn_started': clauses.push(event.forced_bonus ? `${who}’s turn: a bonus card is owed` : `${who}’s turn`); break;
      case 'rolled': clauses.push(`${who} rolled ${(event.dice || []).join(' and ')}`); break;
      case 'placed': clauses.push(`${who} played ${names(event.group.cards)} ${BASIS_SHORT[event.group.basis] || ''}`.trim()); break;
      case 'stop_ignored': clauses.push(`the cards after the Stop went back to ${who}’s hand`); break;
      case 'luck_plus_played': clauses.push(`${who} played Luck Plus${event.bonus && event.bonus.length ? ` with ${names(event.bonus)} as a bonus` : ' with no bonus'}`); break;
      case 'forced_bonus_owed': clauses.push(`${who} must play a bonus card next`); break;
      case 'bonus_played': clauses.push(`${who} played ${names(event.cards)} as a bonus`); break;
      case 'reshuffled': clauses.push(`the match pile (${count(event.cards, 'card')}) was shuffled into a new draw pile`); break;
      case 'drew': clauses.push(`${who} drew ${cardName(event.card)}${event.playable ? ', which can be played' : ''}`); break;
      case 'draw_void': clauses.push(`nothing was left for ${who} to draw`); break;
      case 'kept': if (!event.automatic) clauses.push(`${who} kept ${cardName(event.card)}`); break;
      case 'transferred': clauses.push(`${nameOf(ctx, event.from)} gave ${names(event.cards)} to ${nameOf(ctx, event.to)}`); break;
      case 'turn_ended': if (event.reason !== 'went_out') clauses.push(`${who}’s turn ended (${TURN_END[event.reason] || 'done'})`); break;
      case 'went_out': clauses.push(`${who} went out${event.luck_out ? ': a LUCK OUT' : ''}`); break;
      case 'final_round': clauses.push(`${listWords((event.seats || []).map((seat) => nameOf(ctx, seat)))} each get one more turn`); break;
      case 'hand_ended': clauses.push(handEnded(event.result, ctx)); break;
      case 'game_ended': clauses.push(`the game is over: ${winnersWords(ctx, event.winners)}`); break;
      default: break;
    }
  }
  return clauses;
}

export function quietMove(entry, ctx) {
  const who = nameOf(ctx, entry.seat);
  if (entry.move && entry.move.type === 'roll') return `${who} rolls the dice`;
  if (entry.move && entry.move.type === 'draw') return `${who} draws a card`;
  return `${who} rolls the dice or draws a card`;
}

export function announcement(entry, ctx) {
  const events = entry.events || [];
  const parts = [];
  for (const event of events) {
    if (event.type === 'went_out' && event.luck_out) parts.push(`LUCK OUT! ${nameOf(ctx, event.seat)} went out on the first turn`);
    if (event.type === 'hand_ended') parts.push(capitalise(handEnded(event.result, ctx)));
    if (event.type === 'game_ended') parts.push(`The game is over: ${winnersWords(ctx, event.winners)}`);
  }
  return parts.length ? sentences(parts) : null;
}

/** What this roll has matched already (each once per roll unless the option lifts it). */
function usedWords(view) {
  const used = view.used || {};
  const done = [];
  if (used.pair) done.push('both dice');
  if (used.total) done.push('the total');
  if (used.doubles) done.push('the doubles');
  if (used.single_die) done.push('one die');
  return done.length ? `Already matched: ${listWords(done)}` : '';
}

function scoreWords(view, ctx, seat) {
  const scoring = (view.options || ctx.options || {}).scoring || 'hands';
  const value = (view.totals || [])[seat] ?? 0;
  if (scoring === 'hands') return count(value, 'hand') + ' won';
  return scoring === 'penalty_points' ? count(value, 'penalty point') : count(value, 'point');
}

function status(view, ctx) {
  const who = capitalise(youOr(ctx, view.turn));
  const mine = view.turn === ctx.seat;
  const dice = (view.dice || []).join(' and ');
  switch (view.phase) {
    case 'over': return 'The game is over.';
    case 'deal': return `Waiting for hand ${view.hand} to be dealt.`;
    case 'forced_bonus': return `${who} must play any one card (and others of its number) as a bonus: that is the whole turn.`;
    case 'pre_roll': return `${mine ? 'Your' : `${nameOf(ctx, view.turn)}’s`} turn: roll the dice${dice ? `, or first match the last roll (${dice}) or the top card` : ''}.`;
    case 'rolling': return `Waiting for ${youOr(ctx, view.turn)} to roll.`;
    case 'rolled': return `${who} rolled ${dice}: match cards, or draw.`;
    case 'matching': return `${who} matched: roll again to go on.`;
    case 'must_roll': return `${who} must roll again.`;
    case 'drawing': return `Waiting for ${youOr(ctx, view.turn)} to draw.`;
    case 'drawn': return `${who} drew ${view.drawn ? cardName(view.drawn) : 'a card'}: play it, give it away or keep it.`;
    default: return mine ? 'Your turn.' : `${nameOf(ctx, view.turn)}’s turn.`;
  }
}

export function render(view, ctx, kit) {
  const h = kit.h;
  const seat = ctx.seat;
  const options = view.options || ctx.options || {};
  const sections = [];
  if (seat !== null && seat !== undefined && view.hands && view.hands[seat]) {
    sections.push(part(kit, ctx, 'Your hand', cardList(kit, GAME, view.hands[seat], 'Your cards', { empty: 'No cards: you are out' })));
  }
  sections.push(line(kit, status(view, ctx), 'table-status'));
  const dice = view.dice || [];
  const under = (view.draw_bottom || []).length;
  sections.push(part(kit, ctx, 'Piles and dice',
    h('div', { class: 'table-piles' },
      h('div', { class: 'table-pile' }, h('p', { class: 'table-pile-name' }, 'Match pile'),
        view.match_top ? kit.cardFace(GAME, view.match_top) : line(kit, 'Empty', 'table-muted'),
        line(kit, count((view.match_pile || []).length, 'card'), 'table-muted')),
      h('div', { class: 'table-pile' }, h('p', { class: 'table-pile-name' }, 'Draw pile'),
        backs(kit, view.draw_pile_size || 0, `Draw pile: ${count(view.draw_pile_size || 0, 'card')}`),
        under ? line(kit, `${count(under, 'Luck Plus card')} underneath`, 'table-muted') : null),
      h('div', { class: 'table-pile' }, h('p', { class: 'table-pile-name' }, view.rolled_this_turn ? 'Dice rolled this turn' : 'Dice'),
        dice.length ? h('div', { class: 'table-dice' }, dice.map((value) => kit.dieFace(value))) : line(kit, 'Not rolled yet', 'table-muted'),
        dice.length === 2 ? line(kit, dice[0] === dice[1] ? `Doubles, total ${dice[0] + dice[1]}` : `Total ${dice[0] + dice[1]}`, 'table-muted') : null,
        usedWords(view) ? line(kit, usedWords(view), 'table-muted') : null)),
    view.drawn && view.turn !== seat ? line(kit, `${nameOf(ctx, view.turn)} drew ${cardName(view.drawn)}.`) : null,
    view.drawn && view.turn === seat ? h('div', { class: 'table-pending' }, line(kit, 'The card you drew:'), cardList(kit, GAME, [view.drawn], 'The card you drew')) : null));
  const scoring = options.scoring || 'hands';
  const target = view.target || options.target;
  const goal = scoring === 'hands' ? `first to win ${count(target, 'hand')}` : scoring === 'points_to_winner' ? `first to ${count(target, 'point')}` : `the game ends at ${count(target, 'penalty point')}; fewest wins`;
  const out = new Set((view.out || []).map((item) => item.seat));
  sections.push(part(kit, ctx, `Hand ${view.hand || 1}: ${goal}`,
    playersList(kit, ctx, view, (player) => ` ${count(((view.hands || [])[player] || []).length, 'card')}, ${scoreWords(view, ctx, player)}${player === view.dealer ? ', dealer' : ''}${out.has(player) ? ', out' : ''}`),
    view.final_round && view.final_round.length ? line(kit, `After the LUCK OUT, still to play one more turn: ${listWords(view.final_round.map((other) => nameOf(ctx, other)))}.`) : null,
    view.forced_bonus_pending && view.phase !== 'forced_bonus' ? line(kit, `${capitalise(youOr(ctx, nextInHand(view, view.turn)))} will owe a bonus card.`) : null));
  const others = (view.hands || []).map((hand, player) => ({ hand, player })).filter(({ player }) => player !== seat);
  if (others.length) {
    sections.push(part(kit, ctx, 'Everyone’s cards (dealt face up)',
      others.map(({ hand, player }) => h('div', { class: 'table-other-hand' },
        h('p', { class: 'table-pile-name' }, nameOf(ctx, player)),
        cardList(kit, GAME, hand || [], `${nameOf(ctx, player)}’s cards`, { small: true, empty: 'No cards' })))));
  }
  if ((view.results || []).length) {
    sections.push(part(kit, ctx, 'Hands played', facts(kit, 'Hands played', view.results.map((result) => capitalise(handEnded(result, ctx))))));
  }
  return sections;
}

/** Why an irreversible move cannot be taken back, in a sentence for its confirmation. */
export function why(move, view, ctx, words) {
  if (move.type === 'roll') return 'The dice are rolled at once';
  if (move.type === 'draw') return 'The card is drawn at once';
  return /ends the game/.test(words.consequence) ? 'It ends the game' : 'The next hand is dealt at once';
}

export const luckPlus = { why, cardName, describeMove, describeEvents, quietMove, announcement, render };
