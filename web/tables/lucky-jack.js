// Lucky Jack's table: seven symbols from lemon (lowest) to jack (highest); discard the same or
// higher, or lower and draw 2; the first to lay down their last 3 or 4 identical cards wins the
// round's JACKPOT (rulebook "How to Play Lucky Jack", "End of the Round").
//
// The view's fields left off the table on purpose: `draw_pile` (the owner's full view only: the
// pile's make-up), every other player's hand in the owner's full view (the table shows what a
// seat or a spectator may see), `starter` (who turned up the round's first card, told in the
// log), `turn_start_hand` (feeds the words of a draw at 3 cards), `options` other than the rounds
// and the turn cap, `legal_moves` (the shell's buttons, worded by describeMove).

import { nameOf, youOr, listWords, number, numberWords, amount, count, capitalise, sentences, winnersWords, nextSeat, tally, without, part, cardList, backs, line, facts, playersList } from './common.js';

const GAME = 'lucky-jack';
export const SYMBOLS = ['lemon', 'cherry', 'grape', 'clover', 'bell', 'seven', 'jack'];
const NAMES = { lemon: 'Lemon', cherry: 'Cherry', grape: 'Grape', clover: 'Clover', bell: 'Bell', seven: '7', jack: 'Jack' };
// The printed jackpot table: 3 cards = 1,000 × rank; 4 cards as printed.
const FOUR = { lemon: 3000, cherry: 4000, grape: 5000, clover: 6000, bell: 7000, seven: 8000, jack: 10000 };

export function cardName(card) {
  return NAMES[card] || 'a card';
}
// The symbols in a sentence: the "7" card is a seven there, as a family says it.
const SAID = { seven: ['seven', 'sevens'], cherry: ['cherry', 'cherries'] };
const said = (card, n) => (SAID[card] || [cardName(card).toLowerCase(), `${cardName(card).toLowerCase()}s`])[n === 1 ? 0 : 1];
/** "a lemon", "a seven". */
function a(card) {
  return `a ${said(card, 1)}`;
}
/** "3 jacks", "3 sevens" on a button or in a list; with `inWords`, in a sentence: "three sevens". */
function cards(card, n, inWords = false) {
  return `${inWords ? numberWords(n) : number(n)} ${said(card, n)}`;
}
const rank = (card) => SYMBOLS.indexOf(card) + 1;

export function jackpotPoints(symbol, size) {
  return size === 4 ? FOUR[symbol] : 1000 * rank(symbol);
}

/** "same", "higher" or "lower" than the top of the discard pile. */
export function compare(top, card) {
  if (!top) return 'higher';
  if (card === top) return 'same';
  return rank(card) > rank(top) ? 'higher' : 'lower';
}

/** The jackpot a hand would show after giving up `card`: {symbol, size} or null. */
export function jackpotAfter(hand, card) {
  const rest = without(hand, card);
  if (rest.length !== 3 && rest.length !== 4) return null;
  if (hand.length !== rest.length + 1 || !rest.every((item) => item === rest[0])) return null;
  return { symbol: rest[0], size: rest.length };
}

function jackpotWords(jackpot) {
  return `JACKPOT: ${cards(jackpot.symbol, jackpot.size)}, ${number(jackpotPoints(jackpot.symbol, jackpot.size))} points`;
}

/** What follows when this turn ends: the next player, or the turn cap's end of the round. */
function afterTurn(view, options, ctx, seat) {
  const players = view.players || (ctx.names || []).length || 2;
  const cap = options.max_turns_per_round;
  if (cap && (view.turns_this_round || 0) + 1 >= cap) {
    const last = (view.round || 1) >= (options.rounds || 3);
    // The round's end brings the next deal, at once in a server match: no take-back reaches past it.
    return { words: `that is the round’s last turn: it ends with no jackpot${last ? ', and so does the game' : ''}`, ends: last || ctx.randomness !== 'table' };
  }
  return { words: `then ${nameOf(ctx, nextSeat(seat, players))} plays`, ends: false };
}

export function describeMove(move, view, ctx) {
  const seat = ctx.seat ?? view.turn;
  const options = view.options || ctx.options || {};
  const players = view.players || (ctx.names || []).length || 2;
  const next = nameOf(ctx, nextSeat(seat, players));
  const after = afterTurn(view, options, ctx, seat);
  const hand = (view.hands && view.hands[seat]) || [];
  const pile = view.discard || [];
  const top = pile[pile.length - 1];
  const serverChance = ctx.randomness !== 'table';
  switch (move.type) {
    case 'discard': {
      const option = compare(top, move.card);
      const jackpot = jackpotAfter(hand, move.card);
      const title = `Discard ${a(move.card)}`;
      const versus = top ? `${capitalise(option === 'same' ? `same as the ${cardName(top).toLowerCase()} on top` : `${option} than the ${cardName(top).toLowerCase()} on top`)}` : 'The first card on the pile';
      const wins = jackpot && (option !== 'lower' || options.lower_discard_can_win)
        && (options.jackpot_auto_declare !== false || move.jackpot);
      if (wins) {
        const lastRound = (view.round || 1) >= (options.rounds || 3);
        return { title: move.jackpot ? `${title} and call JACKPOT` : title, consequence: `${versus}: ${jackpotWords(jackpot)} for you, and the round ends${lastRound ? ', and so does the game' : ''}`, irreversible: true };
      }
      if (option === 'lower') {
        return { title, consequence: `${versus}: you draw 2 cards; ${after.words}`, irreversible: true };
      }
      const unannounced = jackpot && options.jackpot_auto_declare === false ? '. Without calling JACKPOT you keep your cards' : '';
      return { title, consequence: `${versus}: your turn ends; ${after.words}${unannounced}`, irreversible: true };
    }
    case 'draw': {
      const floor = view.turn_start_hand === 3 || hand.length === 3;
      return {
        title: 'Draw a card',
        consequence: floor ? 'You have only 3 cards: you must keep the card you draw' : 'Only you see it; then keep it or discard it',
        irreversible: serverChance,
      };
    }
    case 'keep': {
      const card = view.pending;
      return { title: card ? `Keep the ${cardName(card).toLowerCase()}` : 'Keep the drawn card', consequence: `It goes into your hand; your turn ends; ${after.words}`, irreversible: after.ends };
    }
    case 'discard_drawn': {
      const card = view.pending;
      const title = card ? `Discard the drawn ${cardName(card).toLowerCase()}` : 'Discard the drawn card';
      if (options.drawn_discard_follows_symbol_rule && card && compare(top, card) === 'lower') {
        return { title, consequence: `Lower than the ${cardName(top).toLowerCase()} on top: you draw 2 cards; ${next} may then take it`, irreversible: true };
      }
      if (after.ends || !after.words.startsWith('then')) return { title, consequence: `Your turn ends; ${after.words}`, irreversible: true };
      return { title, consequence: `Your turn ends; ${next} may take it by saying "I take it!"`, irreversible: true };
    }
    case 'take_it': {
      const card = view.takeable ? view.takeable.card : top;
      return {
        title: `Take the ${card ? cardName(card).toLowerCase() : 'card'}: "I take it!"`,
        consequence: options.i_take_it_ends_turn ? `It goes into your hand, and that is your whole turn; ${after.words}` : 'It goes into your hand, then you play your turn',
        irreversible: Boolean(options.i_take_it_ends_turn && after.ends),
      };
    }
    default:
      return { title: 'Play', consequence: '', irreversible: false };
  }
}

function optionWords(option) {
  return option === 'lower' ? ' (lower than the top)' : option === 'same' ? ' (the same as the top)' : option === 'higher' ? ' (higher than the top)' : '';
}

/** Each event as a clause. */
export function describeEvents(entry, ctx) {
  const clauses = [];
  const events = entry.events || [];
  const dealt = events.filter((event) => event.type === 'dealt');
  if (dealt.length) {
    const mine = dealt.find((event) => event.seat === ctx.seat && event.cards);
    clauses.push(`${amount(dealt[0].count, 'card')} dealt to each player${mine ? `; your hand: ${listWords(mine.cards.map((card) => cardName(card)))}` : ''}`);
  }
  for (const event of events) {
    const who = nameOf(ctx, event.seat);
    switch (event.type) {
      case 'round_started': clauses.unshift(`round ${event.round} begins: ${nameOf(ctx, event.first)} plays first`); break;
      case 'dealt': break;
      case 'flipped': clauses.push(`${who} turned up ${a(event.card)}`); break;
      case 'discarded': clauses.push(`${who} discarded ${a(event.card)}${optionWords(event.option)}`); break;
      case 'drew': clauses.push(`${who} drew ${event.cards && event.cards.length ? listWords(event.cards.map(a)) : count(event.count, 'card')}`); break;
      case 'draw_void': clauses.push(`no card was left for ${who} to draw`); break;
      case 'kept': clauses.push(`${who} kept the drawn card${event.card ? ` (${a(event.card)})` : ''}`); break;
      case 'discarded_drawn': clauses.push(`${who} discarded the drawn card, ${a(event.card)}`); break;
      case 'took_it': clauses.push(`${who} said "I take it!" and took ${a(event.card)}`); break;
      case 'reshuffled': clauses.push(`${who} shuffled the discard pile (${count(event.cards, 'card')}) into a new draw pile`); break;
      case 'jackpot': clauses.push(`JACKPOT! ${who} laid down ${cards(event.symbol, event.size, true)} and won ${amount(event.points, 'point')}`); break;
      case 'round_ended': clauses.push(roundEnded(event, entry, ctx)); break;
      case 'game_ended': clauses.push(`the game is over: ${winnersWords(ctx, event.winners)}${finalPoints(event, ctx)}`); break;
      default: break;
    }
  }
  return clauses;
}

function finalPoints(event, ctx) {
  if (!event.totals || !(event.winners || []).length) return '';
  return ` with ${amount(event.totals[event.winners[0]], 'point')}`;
}

function roundEnded(event, entry, ctx) {
  if (event.winner === null || event.winner === undefined) return `round ${event.round} ends with no jackpot`;
  const jackpot = (entry.events || []).find((item) => item.type === 'jackpot');
  const detail = jackpot ? ` (${cards(jackpot.symbol, jackpot.size, true)}, ${amount(jackpot.points, 'point')})` : '';
  return `round ${event.round} ends: ${nameOf(ctx, event.winner)} wins the jackpot${detail}`;
}

/** A move the log shows without events (its card is for its seat's eyes only). */
export function quietMove(entry, ctx) {
  const who = nameOf(ctx, entry.seat);
  if (entry.move && entry.move.type === 'draw') return `${who} chose to draw a card`;
  return `${who} drew a card`;
}

export function announcement(entry, ctx) {
  const events = entry.events || [];
  const parts = [];
  const round = events.find((event) => event.type === 'round_ended');
  if (round) parts.push(roundEnded(round, entry, ctx));
  const game = events.find((event) => event.type === 'game_ended');
  if (game) parts.push(`The game is over: ${winnersWords(ctx, game.winners)}${finalPoints(game, ctx)}`);
  return parts.length ? sentences(parts) : null;
}

function status(view, ctx) {
  if (view.phase === 'over') return 'The game is over.';
  if (view.chance) {
    const chance = view.chance;
    if (chance.kind === 'deal') return `Waiting for the cards of round ${view.round} to be dealt.`;
    if (chance.kind === 'flip') return `Waiting for ${nameOf(ctx, chance.seat)} to turn up a new discard.`;
    return `Waiting for ${nameOf(ctx, chance.seat)} to draw ${count(chance.count, 'card')}.`;
  }
  const who = nameOf(ctx, view.turn);
  const mine = view.turn === ctx.seat;
  if (view.drawn_card_pending) {
    return mine ? 'You drew a card: keep it or discard it.' : `${who} drew a card and must keep it or discard it.`;
  }
  if (view.draw_owed > 0) return `${capitalise(youOr(ctx, view.turn))} must draw ${count(view.draw_owed, 'card')}.`;
  if (view.takeable && (view.to_act || []).includes(view.takeable.by)) {
    const taker = view.takeable.by === ctx.seat ? 'You may' : `${nameOf(ctx, view.takeable.by)} may`;
    return `${mine ? 'Your turn' : `${who}’s turn`}. ${taker} take the ${cardName(view.takeable.card).toLowerCase()} ${nameOf(ctx, view.takeable.from)} discarded ("I take it!").`;
  }
  return mine ? 'Your turn.' : `${who}’s turn.`;
}

export function render(view, ctx, kit) {
  const h = kit.h;
  const seat = ctx.seat;
  const options = view.options || ctx.options || {};
  const discard = view.discard || [];
  const top = discard[discard.length - 1];
  const sections = [];
  if (seat !== null && seat !== undefined && view.hands && view.hands[seat]) {
    sections.push(part(kit, ctx, 'Your hand',
      cardList(kit, GAME, view.hands[seat], 'Your cards', { empty: 'No cards in your hand' }),
      view.pending && view.turn === seat ? h('div', { class: 'table-pending' }, line(kit, 'The card you drew:'), cardList(kit, GAME, [view.pending], 'The card you drew')) : null));
  }
  sections.push(line(kit, status(view, ctx), 'table-status'));
  sections.push(part(kit, ctx, 'Piles',
    h('div', { class: 'table-piles' },
      h('div', { class: 'table-pile' }, h('p', { class: 'table-pile-name' }, 'Discard pile'),
        top ? kit.cardFace(GAME, top) : line(kit, 'Empty', 'table-muted'),
        discard.length ? line(kit, count(discard.length, 'card'), 'table-muted') : null),
      h('div', { class: 'table-pile' }, h('p', { class: 'table-pile-name' }, 'Draw pile'),
        backs(kit, view.draw_pile_size, `Draw pile: ${count(view.draw_pile_size, 'card')}`))),
    view.takeable ? line(kit, `The ${cardName(view.takeable.card).toLowerCase()} on top was drawn and discarded by ${nameOf(ctx, view.takeable.from)}: ${youOr(ctx, view.takeable.by)} may take it.`) : null));
  const roundsTotal = options.rounds || 3;
  const cap = options.max_turns_per_round;
  sections.push(part(kit, ctx, `Round ${view.round || 1} of ${roundsTotal}`,
    playersList(kit, ctx, view, (player) => ` ${count((view.hand_sizes || [])[player] ?? 0, 'card')} in hand, ${number((view.totals || [])[player] ?? 0)} points`),
    cap ? line(kit, `A round ends with no jackpot after ${count(cap, 'turn')}; ${count(view.turns_this_round || 0, 'turn')} played this round.`, 'table-muted') : null,
    (view.results || []).length ? facts(kit, 'Rounds played', view.results.map((result) => {
      const outcome = result.result || {};
      return outcome.result === 'jackpot'
        ? `Round ${result.round}: ${nameOf(ctx, outcome.seat)} won the jackpot (${cards(outcome.symbol, outcome.size)}, ${number(outcome.points)} points)`
        : `Round ${result.round}: no jackpot${outcome.reason === 'turn_limit' ? ' (turn limit)' : ''}`;
    })) : null));
  return sections;
}

/** Why an irreversible move cannot be taken back, in a sentence for its confirmation. */
export function why(move, view, ctx, words) {
  if (move.type === 'discard' || move.type === 'discard_drawn') return 'Everyone sees the card you discard';
  if (move.type === 'draw') return 'The card is drawn at once';
  return /the game/.test(words.consequence) ? 'It ends the game' : 'The next round is dealt at once';
}

export const luckyJack = { why, cardName, describeMove, describeEvents, quietMove, announcement, render };
