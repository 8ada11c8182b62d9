// Each game's round, in its own terms: the form that writes a tally (cards entered by tapping
// their pictures), a one-line summary of an entry, and the breakdown of a scored round.
// `fieldFor(params)` picks the control a refusal is about, from the problem's `params` (null when
// the refusal is about the whole table: the sheet page then shows it above the save button).

import { h, field, uid, formatNumber } from './dom.js';
import { post } from './api.js';
import { explain } from './messages.js';
import {
  cardFace, cardLabel, cardPicker, JACK_SYMBOLS, LUCK_PLUS_CARDS, RANKS, LUAU_CARDS, RAINBOW_COLOURS,
} from './cards.js';

function seatFieldset(name, ...children) {
  return h('fieldset', { class: 'seat' }, h('legend', {}, name), ...children);
}

/**
 * One player's card pickers behind one button, so a long form shows one player's cards to tap at
 * a time (opening one folds the others of `folds`); folded, a line says what was tapped.
 */
function cardFold(name, pickers, folds, summary) {
  const button = h('button', {
    type: 'button', class: 'secondary fold', 'aria-expanded': 'false', 'aria-controls': pickers.map((picker) => picker.element.id).join(' '),
  }, `Tap ${name}’s cards`);
  const said = h('p', { class: 'folded muted' });
  const fold = {
    pickers,
    element: h('div', { class: 'fold-head' }, said, button),
    isOpen: false,
    set(open) {
      if (open) for (const other of folds) if (other !== fold) other.set(false);
      fold.isOpen = open;
      button.setAttribute('aria-expanded', String(open));
      said.textContent = summary();
      said.hidden = open;
      for (const picker of pickers) picker.element.hidden = !open;
    },
  };
  button.addEventListener('click', () => fold.set(!fold.isOpen));
  folds.push(fold);
  fold.set(false);
  return fold;
}

/** What was tapped in these `[label, picker]`s, in a line, for a folded player. */
function tapped(game, labelled) {
  const parts = labelled.filter(([, picker]) => picker.value().length)
    .map(([label, picker]) => `${label}: ${cardList(game, picker.value())}`);
  return parts.length ? parts.join(' · ') : 'No cards tapped yet.';
}

/** Reads a form whose typed cards may sit in a folded picker: a refused word opens it. */
function readFolded(folds, read) {
  try {
    return read();
  } catch (error) {
    const fold = error.control && folds.find((candidate) => candidate.pickers.some((picker) => picker.element.contains(error.control)));
    if (fold) fold.set(true);
    throw error;
  }
}

/** Opens the fold holding `picker` (a refusal about its cards is shown there); returns its element. */
function reveal(folds, picker) {
  const fold = folds.find((candidate) => candidate.pickers.includes(picker));
  if (fold && !fold.isOpen) fold.set(true);
  return picker.element;
}

const seatOf = (params) => (params && Number.isInteger(params.seat) ? params.seat : null);

/** The picker holding the most copies of `card` (where a "too many" refusal belongs), or null. */
function pickerHolding(pickers, card) {
  let best = null;
  let most = 0;
  for (const picker of pickers) {
    const count = picker.value().filter((value) => value === card).length;
    if (count > most) {
      best = picker;
      most = count;
    }
  }
  return best;
}

// --- Lucky Jack: three choices ---------------------------------------------------------------

function luckyJack(players) {
  const winner = h('select', { name: 'winner' },
    h('option', { value: '' }, 'Nobody (no jackpot)'),
    players.map((player) => h('option', { value: player.seat }, player.name)));
  const symbol = h('select', { name: 'symbol' },
    JACK_SYMBOLS.map((name) => h('option', { value: name }, cardLabel('lucky-jack', name))));
  const size = h('select', { name: 'size' },
    h('option', { value: '3' }, '3 cards'), h('option', { value: '4' }, '4 cards'));
  const picture = h('div', { class: 'jackpot-picture' });
  const sync = () => {
    symbol.disabled = winner.value === '';
    size.disabled = winner.value === '';
    const cards = winner.value === '' ? [] : Array.from({ length: Number(size.value) }, () => symbol.value);
    picture.replaceChildren(...cards.map((card) => cardFace('lucky-jack', card, { small: true })));
    picture.hidden = cards.length === 0;
  };
  for (const control of [winner, symbol, size]) control.addEventListener('change', sync);
  sync();
  return {
    element: h('div', { class: 'round-fields jack-fields' },
      field('Jackpot winner', winner), h('div', { class: 'symbol-row' }, field('Symbol', symbol), field('Cards laid down', size)), picture),
    read: () => ({
      jackpot: winner.value === '' ? null
        : { seat: Number(winner.value), symbol: symbol.value, size: Number(size.value) },
    }),
    fill(tally) {
      winner.value = tally.jackpot ? String(tally.jackpot.seat) : '';
      if (tally.jackpot) {
        symbol.value = tally.jackpot.symbol;
        size.value = String(tally.jackpot.size);
      }
      sync();
    },
    fieldFor(params) {
      if ('size' in params) return size;
      if ('symbol' in params) return symbol;
      return winner;
    },
  };
}

// --- Luck Plus: who went out, and (when the scoring counts them) the cards left, tapped ----------

function luckPlus(players, options = {}) {
  // Scored by hands won, a hand is who went out: the cards left count only in the points scorings.
  const counted = (options.scoring || 'hands') !== 'hands';
  const folds = [];
  let outOrder = 0;
  const seats = players.map((player) => {
    const out = h('input', { type: 'checkbox', name: `out-${player.seat}` });
    const luckOut = h('input', { type: 'checkbox', name: `luck-out-${player.seat}` });
    const left = counted ? cardPicker({
      game: 'luck-plus', cards: LUCK_PLUS_CARDS, label: 'Cards left in hand', emptyText: 'No cards left (yet): tap the cards still in the hand.',
    }) : null;
    const fold = left ? cardFold(player.name, [left], folds, () => tapped('luck-plus', [['Cards left', left]])) : null;
    const outNote = h('p', { class: 'muted out-note', hidden: true }, `${player.name} went out: no cards left to count.`);
    // Whether going out was a LUCK OUT is asked of the players who went out only.
    const luckOutLabel = h('label', {}, luckOut, ' It was a LUCK OUT (on the first turn)');
    const seat = { seat: player.seat, name: player.name, out, luckOut, left, fold, outNote, order: 0 };
    const sync = () => {
      luckOutLabel.hidden = !out.checked;
      if (!left) return;
      left.element.hidden = out.checked || !fold.isOpen;
      fold.element.hidden = out.checked;
      outNote.hidden = !out.checked;
    };
    out.addEventListener('change', () => {
      if (out.checked) seat.order = ++outOrder;
      else luckOut.checked = false;
      sync();
    });
    seat.sync = sync;
    sync();
    seat.element = seatFieldset(player.name,
      h('div', { class: 'checks toggles' }, h('label', {}, out, ' Went out'), luckOutLabel),
      left ? [outNote, fold.element, left.element] : null);
    return seat;
  });
  const pickers = () => seats.filter((seat) => seat.left && !seat.out.checked).map((seat) => seat.left);
  return {
    note: counted ? null : 'Scored by hands won: tick who went out, that is all the sheet needs.',
    element: h('div', { class: 'round-fields' }, seats.map((seat) => seat.element)),
    read() {
      return readFolded(folds, () => {
        for (const picker of pickers()) picker.flush();
        return {
          out: seats.filter((seat) => seat.out.checked).sort((a, b) => a.order - b.order)
            .map((seat) => ({ seat: seat.seat, luck_out: seat.luckOut.checked })),
          // Not asked for when the scoring does not count them: nobody's cards are known.
          cards_left: seats.map((seat) => (seat.left && !seat.out.checked ? seat.left.value() : [])),
        };
      });
    },
    fill(tally) {
      for (const seat of seats) {
        const index = (tally.out || []).findIndex((entry) => entry.seat === seat.seat);
        const out = index >= 0 ? tally.out[index] : null;
        seat.out.checked = Boolean(out);
        seat.luckOut.checked = Boolean(out && out.luck_out);
        seat.order = index >= 0 ? index + 1 : 0;
        if (seat.left) seat.left.set((tally.cards_left || [])[seat.seat] || []);
        seat.sync();
      }
      for (const fold of folds) fold.set(false);
      outOrder = (tally.out || []).length;
    },
    fieldFor(params) {
      const seat = seats[seatOf(params)];
      if (seat) return seat.out.checked || !seat.left ? seat.out : reveal(folds, seat.left);
      if (params.card) {
        const picker = pickerHolding(pickers(), params.card);
        if (picker) return reveal(folds, picker);
      }
      return null;
    },
  };
}

// --- Lucky Dice: who emptied their dice ----------------------------------------------------------

function luckyDice(players) {
  const boxes = players.map((player) => h('input', { type: 'checkbox', name: `emptied-${player.seat}`, value: player.seat }));
  return {
    element: h('fieldset', { class: 'round-fields' },
      h('legend', {}, 'Who got rid of all their dice (and won a coaster)?'),
      h('div', { class: 'checks' }, players.map((player, index) => h('label', {}, boxes[index], ` ${player.name}`)))),
    read: () => ({ emptied: boxes.filter((box) => box.checked).map((box) => Number(box.value)) }),
    fill(tally) {
      for (const box of boxes) box.checked = (tally.emptied || []).includes(Number(box.value));
    },
    fieldFor: (params) => boxes[seatOf(params)] || null,
  };
}

// --- Plus & Minus: three stacks per player, by rank ---------------------------------------------

const STACKS = [['plus', 'Plus stack'], ['minus', 'Minus stack'], ['hand', 'Cards in hand']];

function plusMinus(players) {
  const folds = [];
  const seats = players.map((player) => {
    const pickers = {};
    for (const [stack, label] of STACKS) {
      pickers[stack] = cardPicker({ game: 'plus-minus', cards: RANKS, label, emptyText: 'None' });
    }
    const fold = cardFold(player.name, Object.values(pickers), folds, () => tapped('plus-minus', STACKS.map(([stack, label]) => [label, pickers[stack]])));
    const element = seatFieldset(player.name, fold.element, STACKS.map(([stack]) => pickers[stack].element));
    return { pickers, fold, element };
  });
  const all = () => seats.flatMap((seat) => Object.values(seat.pickers));
  // The first player's cards are offered at once; the next player's open with one tap.
  const unfold = () => seats[0].fold.set(true);
  unfold();
  return {
    note: 'Tap every card of each stack and of the hand (6 to 9 score nothing and may be left out).',
    element: h('div', { class: 'round-fields' }, seats.map((seat) => seat.element)),
    read() {
      return readFolded(folds, () => {
        for (const picker of all()) picker.flush();
        return {
          players: seats.map((seat) => Object.fromEntries(Object.entries(seat.pickers).map(([stack, picker]) => [stack, picker.value()]))),
        };
      });
    },
    fill(tally) {
      seats.forEach((seat, index) => {
        const cards = (tally.players || [])[index] || {};
        for (const [stack, picker] of Object.entries(seat.pickers)) picker.set(cards[stack] || []);
      });
      unfold();
    },
    fieldFor(params) {
      const seat = seats[seatOf(params)];
      if (seat) return reveal(folds, seat.pickers[params.stack] || seat.pickers.plus);
      if (params.card) {
        const picker = pickerHolding(all(), params.card);
        if (picker) return reveal(folds, picker);
      }
      return null;
    },
  };
}

// --- Lucky Luau: each finished lei, tapped left to right, scored live ---------------------------

const GUEST_POINTS = Array.from({ length: 31 }, (_, index) => index - 10);

function guestChoices(player) {
  const selects = [];
  const rows = [1, 2, 3].map((guest) => {
    const pair = ['A', 'B'].map((side) => {
      const select = h('select', { name: `guest-${player.seat}-${guest}-${side}` },
        GUEST_POINTS.map((points) => h('option', { value: points, selected: points === 0 }, points > 0 ? `+${points}` : String(points))));
      selects.push(select);
      return field(`Side ${side}`, select);
    });
    return h('div', { class: 'guest', role: 'group', 'aria-label': `Guest ${guest}` }, h('p', { class: 'guest-name', 'aria-hidden': 'true' }, `Guest ${guest}`), pair);
  });
  const box = h('details', { class: 'guests' },
    h('summary', {}, 'Guest bonuses (optional)'),
    h('p', { class: 'hint' }, 'Points each of the three Guests gives this lei, side A and side B (side B only breaks ties).'),
    h('div', { class: 'guest-grid' }, rows));
  return {
    element: box,
    selects,
    read() {
      const values = selects.map((select) => Number(select.value));
      if (values.every((value) => value === 0)) return null;
      return [[values[0], values[1]], [values[2], values[3]], [values[4], values[5]]];
    },
    set(guests) {
      const flat = (guests || []).flat();
      selects.forEach((select, index) => { select.value = String(flat[index] ?? 0); });
      box.open = flat.some((value) => value);
    },
  };
}

function luckyLuau(players) {
  const seats = players.map((player) => {
    const score = h('div', { class: 'lei-score' });
    const scoreTotal = h('p', { class: 'lei-total', 'aria-live': 'polite' }, 'Tap the cards of the lei to see its score.');
    const scoreLines = h('ol', { class: 'lines' });
    score.append(scoreTotal, scoreLines);
    let timer = null;
    let asked = 0;
    const seat = { player };
    const update = () => {
      clearTimeout(timer);
      timer = setTimeout(() => liveScore(seat), 350);
    };
    seat.lei = cardPicker({
      game: 'lucky-luau', cards: [...LUAU_CARDS, ...RAINBOW_COLOURS.map((colour) => `rainbow:${colour}`)],
      label: 'Lei, left to right', ordered: true, onChange: update,
      hint: 'Tap the cards in the order they hang, first card first. A plain Rainbow takes its best colour; or pick "Rainbow as…".',
      emptyText: 'No cards yet.',
    });
    seat.knife = cardPicker({
      game: 'lucky-luau', cards: LUAU_CARDS.map((card) => `cut:${card}`), label: 'What the Knife cut', max: 1, onChange: update,
      typing: false, emptyText: 'Nothing: the Knife was not used.',
    });
    const knifeBox = h('details', { class: 'knife' }, h('summary', {}, 'Used the Knife?'), seat.knife.element);
    seat.knifeBox = knifeBox;
    seat.guests = guestChoices(player);
    for (const select of seat.guests.selects) select.addEventListener('change', update);
    seat.words = () => [...seat.lei.value(), ...seat.knife.value()];
    seat.entry = () => {
      const entry = { player: player.name, lei: seat.words() };
      const guests = seat.guests.read();
      if (guests) entry.guests = guests;
      return entry;
    };
    seat.score = { element: score, total: scoreTotal, lines: scoreLines, next: () => { asked += 1; return asked; }, latest: () => asked };
    seat.element = seatFieldset(player.name, h('div', { class: 'lei-entry' }, seat.lei.element, score), knifeBox, seat.guests.element);
    return seat;
  });

  async function liveScore(seat) {
    const ticket = seat.score.next();
    const { total, lines } = seat.score;
    if (seat.words().length === 0 && !seat.guests.read()) {
      total.classList.remove('refused');
      total.textContent = 'Tap the cards of the lei to see its score.';
      lines.replaceChildren();
      return;
    }
    try {
      // This lei alone, beside an empty one (a table has two players at least).
      const reply = await post('/v1/games/lucky-luau/tally', { players: 2, rounds: [{ leis: [seat.entry(), { lei: [] }] }] });
      if (ticket !== seat.score.latest()) return;
      const scored = reply.rounds[0].seats[0];
      total.classList.remove('refused');
      total.textContent = scored.guest_points
        ? `Lei: ${formatNumber(scored.lei_points)} points, ${formatNumber(scored.total)} with the Guests`
        : `Lei: ${formatNumber(scored.lei_points)} points`;
      lines.replaceChildren(...(scored.lines || []).filter((line) => !/^(Lei|Total):/.test(line)).map((line) => h('li', {}, line)));
    } catch (error) {
      if (ticket !== seat.score.latest()) return;
      total.classList.add('refused');
      total.textContent = error.problem ? explain(error.problem, { names: [seat.player.name], game: 'lucky-luau' }) : 'The score cannot be worked out now (no connection?).';
      lines.replaceChildren();
    }
  }

  return {
    note: 'Lucky Luau is scored once: this one round is the whole game. Enter every player’s lei when the centre is empty.',
    element: h('div', { class: 'round-fields luau-fields' }, seats.map((seat) => seat.element)),
    read() {
      for (const seat of seats) seat.lei.flush();
      return { leis: seats.map((seat) => seat.entry()) };
    },
    fill(tally) {
      seats.forEach((seat, index) => {
        const entry = (tally.leis || [])[index] || {};
        const words = Array.isArray(entry.lei) ? entry.lei : String(entry.lei || '').split(/[\s,]+/).filter(Boolean);
        const lei = [];
        const cut = [];
        for (const word of words) {
          const card = parseLuauWord(word);
          if (card === null) continue;
          (card.startsWith('cut:') ? cut : lei).push(card);
        }
        seat.lei.set(lei);
        seat.knife.set(cut);
        seat.knifeBox.open = cut.length > 0;
        seat.guests.set(entry.guests);
        liveScore(seat);
      });
    },
    fieldFor(params) {
      // Some refusals name a position but not the lei: the live scores know which lei it is.
      const seat = seats[seatOf(params)] || (params.round ? seats.find((candidate) => candidate.score.total.classList.contains('refused')) : null);
      return seat ? seat.lei.element : null;
    },
  };
}

function parseLuauWord(word) {
  const text = String(word).toLowerCase().replaceAll('_', ' ').replace('knife', 'cut').replace('=', ':');
  const [head, tail] = text.split(':');
  if (tail !== undefined) return head === 'cut' ? `cut:${tail.replace(' leaf', '').replace(' nut', '').replace('fish hook', 'hook')}` : `rainbow:${tail}`;
  return { 'ti leaf': 'ti', leaf: 'ti', 'mega leaf': 'mega', 'kukui nut': 'kukui', nut: 'kukui', 'fish hook': 'hook' }[text] || text;
}

const FORMS = { 'lucky-jack': luckyJack, 'luck-plus': luckPlus, 'lucky-dice': luckyDice, 'plus-minus': plusMinus, 'lucky-luau': luckyLuau };

/** The round form of `game` for these players and the sheet's options (what the scoring counts):
 * `{element, read(), fill(tally), fieldFor(params), note?}`. */
export function roundForm(game, players, options = {}) {
  const make = FORMS[game];
  if (!make) throw new Error(`no round form for ${game}`);
  const form = make(players, options || {});
  form.element.id ||= uid('round');
  return form;
}

const nameOf = (players, seat) => (players[seat] ? players[seat].name : `Player ${Number(seat) + 1}`);
const cardList = (game, cards) => (cards || []).map((card) => cardLabel(game, card)).join(', ');
const plural = (count, one, many) => `${count} ${count === 1 ? one : many}`;

function luauWords(lei) {
  const words = Array.isArray(lei) ? lei : String(lei || '').split(/[\s,]+/).filter(Boolean);
  return words.map((word) => cardLabel('lucky-luau', parseLuauWord(word)));
}

/** One line saying what an entry recorded, in the game's terms (nothing for an entry with no
 * tally, as a play brought in with its final scores only). */
export function describeTally(game, tally, players) {
  if (!tally) return '';
  switch (game) {
    case 'lucky-jack':
      return tally.jackpot
        ? `${nameOf(players, tally.jackpot.seat)}: jackpot of ${tally.jackpot.size} × ${cardLabel(game, tally.jackpot.symbol)}`
        : 'No jackpot';
    case 'luck-plus': {
      const out = (tally.out || []).map((entry) => `${nameOf(players, entry.seat)} went out${entry.luck_out ? ' (LUCK OUT)' : ''}`);
      const left = (tally.cards_left || []).map((cards, seat) => (cards.length ? `${nameOf(players, seat)} kept ${cardList(game, cards)}` : null)).filter(Boolean);
      return [out.join(', ') || 'Nobody went out', ...left].join('; ');
    }
    case 'lucky-dice': {
      const names = (tally.emptied || []).map((seat) => nameOf(players, seat));
      return names.length ? `Got rid of all their dice: ${names.join(', ')}` : 'Nobody got rid of all their dice';
    }
    case 'plus-minus':
      return (tally.players || []).map((cards, seat) => `${nameOf(players, seat)}: plus ${cardList(game, cards.plus) || 'none'}; minus ${cardList(game, cards.minus) || 'none'}; hand ${cardList(game, cards.hand) || 'none'}`).join(' · ');
    case 'lucky-luau':
      return (tally.leis || []).map((entry, seat) => `${entry.player || nameOf(players, seat)}: ${luauWords(entry.lei).join(', ') || 'no cards'}`).join(' · ');
    default:
      return 'A round';
  }
}

const REASONS = { no_winner: 'nobody laid one down', turn_limit: 'the turn limit was reached' };

/** The service's breakdown of one scored round, for people. */
export function roundBreakdown(game, score, players) {
  if (!score) return null;
  switch (game) {
    case 'lucky-jack': {
      const result = score.result || {};
      return result.result === 'jackpot'
        ? h('p', {}, `${nameOf(players, result.seat)}: ${result.size} × ${cardLabel(game, result.symbol)} = ${formatNumber(result.points)}`)
        : h('p', {}, `No jackpot${result.reason ? ` (${REASONS[result.reason] || String(result.reason).replaceAll('_', ' ')})` : ''}`);
    }
    case 'lucky-luau':
      return h('div', { class: 'breakdown' }, (score.seats || []).map((seat) => {
        const name = seat.player || nameOf(players, seat.seat);
        return h('section', { 'aria-label': `${name}'s lei` },
          h('h4', {}, `${name}: ${formatNumber(seat.total)}`),
          h('ol', { class: 'lines' }, (seat.lines || []).map((line) => h('li', {}, line))));
      }));
    case 'plus-minus':
      return h('ul', { class: 'breakdown' }, (score.seats || []).map((seat, index) => h('li', {},
        `${nameOf(players, index)}: plus ${formatNumber(seat.plus_points)} − minus ${formatNumber(seat.minus_points)} − hand ${formatNumber(seat.hand_points)} = ${formatNumber(seat.score)}`)));
    case 'luck-plus': {
      // Scored by hands won, no cards are counted: who went out is the whole round.
      const out = (score.out || []).map((entry) => `${nameOf(players, entry.seat)}${entry.luck_out ? ' (LUCK OUT)' : ''}`);
      const kept = (score.left_points || []).map((points, seat) => (points ? `${nameOf(players, seat)} ${plural(points, 'point', 'points')}` : null)).filter(Boolean);
      return h('p', {}, `${out.join(', ') || 'Nobody'} went out.`, kept.length ? ` Cards left worth: ${kept.join(', ')}.` : '');
    }
    case 'lucky-dice': {
      const names = (score.emptied || []).map((seat) => nameOf(players, seat));
      return h('p', {}, names.length ? `Coasters won: ${names.join(', ')}` : 'No coasters won');
    }
    default:
      return null;
  }
}
