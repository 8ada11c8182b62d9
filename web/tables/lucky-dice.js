// Lucky Dice's table: everyone rolls at once; dice showing the round's lucky symbol go to the
// tray, the symbol on the left of your coaster passes a die to the player on your left, the one on
// the right to the player on your right; the first with no dice calls "Stop!" and the others get
// three last rolls (rulebook "HOW TO PLAY").
//
// The view's fields left off the table on purpose: `pile` (the owner's full view only: which
// coasters are left), `won` (which coasters each player turned face down: their number is shown),
// `options` other than the target and the last rolls, `legal_moves` (the shell's buttons).

const GAME = 'lucky-dice';

import { nameOf, youOr, listWords, number, count, capitalise, winnersWords, part, line, facts, playersList, sentences } from './common.js';

const NAMES = {
  clover: 'four-leaf clover', pig: 'lucky pig', cat: 'beckoning cat', penny: 'lucky penny',
  horseshoe: 'horseshoe', hamsa: 'hand of Fatima',
};

export function cardName(symbol) {
  return capitalise(NAMES[symbol] || 'symbol');
}
const the = (symbol) => `the ${NAMES[symbol] || 'symbol'}`;

function neighbours(seat, players) {
  return { left: (seat + 1) % players, right: (seat + players - 1) % players };
}

/** Where each symbol of `seat`'s roll goes, in words. */
function whereDiceGo(view, ctx, seat, extra) {
  const lucky = view.lucky_symbol;
  const luckyWords = lucky ? `dice showing ${the(lucky)} go to the tray` : 'dice showing the lucky symbol go to the tray';
  if (extra) return `Only ${luckyWords}`;
  const coaster = (view.coasters || [])[seat];
  if (!coaster) return capitalise(luckyWords);
  const players = view.players || 2;
  const { left, right } = neighbours(seat, players);
  const parts = [luckyWords];
  if (coaster.left !== lucky) parts.push(`${the(coaster.left)} goes to ${youOr(ctx, left)}`);
  if (coaster.right !== lucky && coaster.right !== coaster.left) parts.push(`${the(coaster.right)} goes to ${youOr(ctx, right)}`);
  return capitalise(parts.join('; '));
}

export function describeMove(move, view, ctx) {
  const seat = ctx.seat ?? (view.to_act || [])[0];
  const options = view.options || ctx.options || {};
  const pool = (view.pools || [])[seat] ?? move.dice ?? 0;
  const serverChance = ctx.randomness !== 'table';
  switch (move.type) {
    case 'roll':
      return {
        title: `Roll your ${count(pool, 'die', 'dice')}`,
        consequence: `${whereDiceGo(view, ctx, seat, false)}${options.auto_stop === false ? '' : '; with none left you call "Stop!"'}`,
        irreversible: serverChance,
      };
    case 'extra_roll': {
      const used = (view.extra_rolls_used || [])[seat] || 0;
      const allowed = options.extra_rolls ?? 3;
      return {
        title: `Roll your ${count(pool, 'die', 'dice')}: last roll ${used + 1} of ${allowed}`,
        consequence: `${whereDiceGo(view, ctx, seat, true)}; get rid of them all to win a coaster too`,
        irreversible: serverChance,
      };
    }
    case 'finish_extra_rolls': {
      const used = (view.extra_rolls_used || [])[seat] || 0;
      const allowed = options.extra_rolls ?? 3;
      // "Now the round is over" once nobody else may roll: then coasters are won, and in a
      // server match the next round's coasters and lucky symbol come at once.
      const others = Array.from({ length: view.players || 0 }, (_, other) => other).filter((other) => other !== seat
        && other !== view.stop_caller && ((view.pools || [])[other] || 0) > 0
        && ((view.extra_rolls_used || [])[other] || 0) < allowed && !(view.finished_extra || [])[other]);
      const ends = !others.length;
      return {
        title: 'Stop rolling',
        consequence: `You keep your ${count(pool, 'die', 'dice')} and give up your last ${count(Math.max(allowed - used, 0), 'roll')}${ends ? '; nobody else may roll, so the round ends' : ''}`,
        irreversible: ends && serverChance,
      };
    }
    case 'stop':
      return {
        title: 'Call "Stop!"',
        consequence: `You have no dice left: the others get ${count(options.extra_rolls ?? 3, 'last roll')}, then you win your coaster`,
        irreversible: false,
      };
    default:
      return { title: 'Play', consequence: '', irreversible: false };
  }
}

function rolledWords(event, ctx) {
  const who = nameOf(ctx, event.seat);
  const dice = event.dice || [];
  const tray = dice.filter((die) => die.to === 'tray').length;
  const stays = dice.filter((die) => die.to === 'stays').length;
  const passed = new Map();
  for (const die of dice.filter((item) => item.to === 'left' || item.to === 'right')) passed.set(die.seat, (passed.get(die.seat) || 0) + 1);
  const where = [];
  if (tray) where.push(`${number(tray)} to the tray`);
  for (const [seat, n] of passed) where.push(`${number(n)} to ${nameOf(ctx, seat)}`);
  if (stays) where.push(`${number(stays)} kept`);
  const faces = listWords(dice.map((die) => NAMES[die.face] || 'a symbol'));
  return `${who}’s dice showed ${faces}${where.length ? `: ${where.join(', ')}` : ''}`;
}

function roundEnded(event, ctx) {
  const winners = (event.emptied || []).map((seat) => nameOf(ctx, seat));
  return `round ${event.round} ends: ${winners.length ? `${listWords(winners)} ${winners.length === 1 ? 'wins a coaster' : 'each win a coaster'}` : 'nobody wins a coaster'}`;
}

export function describeEvents(entry, ctx) {
  const clauses = [];
  for (const event of entry.events || []) {
    const who = nameOf(ctx, event.seat);
    switch (event.type) {
      case 'coasters_drawn': clauses.push((event.draws || []).map((draw) => `${nameOf(ctx, draw.seat)} drew a coaster (${NAMES[draw.coaster.left]} left, ${NAMES[draw.coaster.right]} right)`).join('; ')); break;
      case 'round_started': clauses.push(`round ${event.round} begins: the lucky symbol is ${the(event.lucky_symbol)}`); break;
      case 'rolling': clauses.push(`${who} rolled ${count(event.dice, 'die', 'dice')}${event.extra ? ' (a last roll)' : ''}`); break;
      case 'rolled': clauses.push(rolledWords(event, ctx)); break;
      case 'stopped': clauses.push(`${who} had no dice left and called "Stop!"`); break;
      case 'extra_rolls_declined': clauses.push(`${who} stopped rolling`); break;
      case 'round_ended': clauses.push(roundEnded(event, ctx)); break;
      case 'game_ended': clauses.push(`the game is over: ${winnersWords(ctx, event.winners)}`); break;
      default: break;
    }
  }
  return clauses;
}

export function quietMove(entry, ctx) {
  return `${nameOf(ctx, entry.seat)} rolled`;
}

export function announcement(entry, ctx) {
  const parts = [];
  for (const event of entry.events || []) {
    if (event.type === 'stopped') parts.push(`Stop! ${nameOf(ctx, event.seat)} has no dice left`);
    if (event.type === 'round_ended') parts.push(capitalise(roundEnded(event, ctx)));
    if (event.type === 'game_ended') parts.push(`The game is over: ${winnersWords(ctx, event.winners)}`);
  }
  return parts.length ? sentences(parts) : null;
}

function status(view, ctx) {
  switch (view.phase) {
    case 'over': return 'The game is over.';
    case 'draw_coasters': return 'Waiting for coasters to be drawn.';
    case 'need_lucky_symbol': return `Waiting for the large die: the lucky symbol of round ${view.round}.`;
    case 'race': {
      if (view.chance && view.chance.kind === 'roll') return `Waiting for ${youOr(ctx, view.chance.seat)} to roll.`;
      return 'Everyone rolls at once: get rid of your dice!';
    }
    case 'after_stop': {
      const rest = (view.to_act || []).map((seat) => youOr(ctx, seat));
      return `${capitalise(youOr(ctx, view.stop_caller))} called "Stop!"${rest.length ? `: ${listWords(rest)} may still roll` : ''}.`;
    }
    default: return '';
  }
}

/** A lucky symbol as the page's picture of it (named by the symbol). */
function symbolBadge(kit, symbol, small = false) {
  return kit.h('span', { class: 'table-symbol' }, kit.cardFace(GAME, symbol, { small }));
}

function diceRow(kit, n, label) {
  return kit.h('span', { class: 'table-dice-count', role: 'img', 'aria-label': label },
    Array.from({ length: Math.min(n, 12) }, () => kit.h('span', { class: 'table-small-die' })),
    kit.h('span', { 'aria-hidden': 'true', class: 'table-count' }, number(n)));
}

export function render(view, ctx, kit) {
  const h = kit.h;
  const seat = ctx.seat;
  const options = view.options || ctx.options || {};
  const players = view.players || 2;
  const sections = [];
  if (seat !== null && seat !== undefined && view.pools) {
    const coaster = (view.coasters || [])[seat];
    const { left, right } = neighbours(seat, players);
    sections.push(part(kit, ctx, 'Your dice and coaster',
      diceRow(kit, view.pools[seat] ?? 0, `You have ${count(view.pools[seat] ?? 0, 'die', 'dice')}`),
      coaster ? h('div', { class: 'table-coaster' },
        h('p', {}, 'Left: ', symbolBadge(kit, coaster.left, true), ` goes to ${nameOf(ctx, left)}`),
        h('p', {}, 'Right: ', symbolBadge(kit, coaster.right, true), ` goes to ${nameOf(ctx, right)}`)) : null));
  }
  sections.push(line(kit, status(view, ctx), 'table-status'));
  if (view.phase !== 'over') sections.push(part(kit, ctx, 'Tray and lucky symbol',
    h('div', { class: 'table-piles' },
      view.lucky_symbol || view.phase !== 'over' ? h('div', { class: 'table-pile' }, h('p', { class: 'table-pile-name' }, 'Lucky symbol'),
        view.lucky_symbol ? symbolBadge(kit, view.lucky_symbol) : line(kit, 'Not rolled yet', 'table-muted')) : null,
      h('div', { class: 'table-pile' }, h('p', { class: 'table-pile-name' }, 'Tray'),
        diceRow(kit, view.tray || 0, `Tray: ${count(view.tray || 0, 'die', 'dice')}`)),
      h('div', { class: 'table-pile' }, h('p', { class: 'table-pile-name' }, 'Coasters left'),
        line(kit, count(view.pile_size || 0, 'coaster'))))));
  const target = options.end_mode === 'until_pile_empty' ? null : options.coaster_target ?? 3;
  const extra = options.extra_rolls ?? 3;
  sections.push(part(kit, ctx, `Round ${view.round || 1}: ${target ? `first to ${count(target, 'coaster')} wins` : 'most coasters when the pile runs out wins'}`,
    playersList(kit, ctx, view, (player) => {
      const coaster = (view.coasters || [])[player];
      const bits = view.phase === 'over' ? [] : [` ${count((view.pools || [])[player] ?? 0, 'die', 'dice')}`];
      bits.push(`${count((view.totals || [])[player] ?? 0, 'coaster')} won`);
      if (coaster && player !== seat && view.phase !== 'over') bits.push(`coaster ${NAMES[coaster.left]} / ${NAMES[coaster.right]}`);
      if (view.phase === 'after_stop' && player !== view.stop_caller) {
        const used = (view.extra_rolls_used || [])[player] || 0;
        bits.push((view.finished_extra || [])[player] ? 'stopped rolling' : `${count(Math.max(extra - used, 0), 'last roll')} left`);
      }
      if (player === view.stop_caller) bits.push('called "Stop!"');
      return bits.join(', ');
    }),
    (view.results || []).length ? facts(kit, 'Rounds played', view.results.map((result) => `Round ${result.round} (lucky symbol: ${NAMES[result.lucky_symbol]}): ${listWords((result.emptied || []).map((player) => nameOf(ctx, player)))} won a coaster`)) : null));
  return sections;
}

/** Why an irreversible move cannot be taken back, in a sentence for its confirmation. */
export function why(move) {
  if (move.type === 'roll' || move.type === 'extra_roll') return 'The dice are rolled at once';
  return 'The round ends and the next one starts at once';
}

export const luckyDice = { why, cardName, describeMove, describeEvents, quietMove, announcement, render };
