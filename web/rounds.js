// Each game's round, in its own terms: the form that writes a tally, a one-line summary of an
// entry, and the breakdown of a scored round. `fieldFor(params)` picks the control a refusal is
// about, from the problem's `params`.

import { h, field, uid, formatNumber } from './dom.js';

const JACK_SYMBOLS = ['lemon', 'cherry', 'grape', 'clover', 'bell', 'seven', 'jack'];

function words(text) {
  return String(text || '').split(/[\s,]+/).filter(Boolean);
}

function seatFieldset(name, ...children) {
  return h('fieldset', { class: 'seat' }, h('legend', {}, name), ...children);
}

function luckyJack(players) {
  const winner = h('select', { name: 'winner' },
    h('option', { value: '' }, 'Nobody (no jackpot)'),
    players.map((player) => h('option', { value: player.seat }, player.name)));
  const symbol = h('select', { name: 'symbol' },
    JACK_SYMBOLS.map((name) => h('option', { value: name }, name)));
  const size = h('select', { name: 'size' },
    h('option', { value: '3' }, '3 cards'), h('option', { value: '4' }, '4 cards'));
  const sync = () => {
    symbol.disabled = winner.value === '';
    size.disabled = winner.value === '';
  };
  winner.addEventListener('change', sync);
  sync();
  return {
    element: h('div', { class: 'round-fields' },
      field('Jackpot winner', winner), field('Symbol', symbol), field('Cards laid down', size)),
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

function luckPlus(players) {
  const seats = players.map((player) => {
    const out = h('input', { type: 'checkbox', name: `out-${player.seat}` });
    const luckOut = h('input', { type: 'checkbox', name: `luck-out-${player.seat}` });
    const left = h('input', { type: 'text', name: `left-${player.seat}`, autocomplete: 'off', autocapitalize: 'characters', spellcheck: 'false' });
    const element = seatFieldset(player.name,
      h('div', { class: 'checks' },
        h('label', {}, out, ' Went out'),
        h('label', {}, luckOut, ' LUCK OUT (on the first turn)')),
      field('Cards left', left, 'Like GO-3 STOP-12 TR-7 TP-2 DBL LP; empty if out'));
    return { seat: player.seat, out, luckOut, left, element };
  });
  return {
    element: h('div', { class: 'round-fields' }, seats.map((seat) => seat.element)),
    read: () => ({
      out: seats.filter((seat) => seat.out.checked)
        .map((seat) => ({ seat: seat.seat, luck_out: seat.luckOut.checked })),
      cards_left: seats.map((seat) => words(seat.left.value).map((card) => card.toUpperCase())),
    }),
    fill(tally) {
      for (const seat of seats) {
        const out = (tally.out || []).find((entry) => entry.seat === seat.seat);
        seat.out.checked = Boolean(out);
        seat.luckOut.checked = Boolean(out && out.luck_out);
        seat.left.value = ((tally.cards_left || [])[seat.seat] || []).join(' ');
      }
    },
    fieldFor: (params) => (seats[params.seat] || seats[0]).left,
  };
}

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
    fieldFor: (params) => boxes[params.seat] || boxes[0],
  };
}

function plusMinus(players) {
  const seats = players.map((player) => {
    const inputs = {};
    for (const stack of ['plus', 'minus', 'hand']) {
      inputs[stack] = h('input', { type: 'text', name: `${stack}-${player.seat}`, autocomplete: 'off', autocapitalize: 'characters', spellcheck: 'false' });
    }
    const element = seatFieldset(player.name,
      field('Plus stack', inputs.plus, 'Ranks like A K Q J 10 7'),
      field('Minus stack', inputs.minus),
      field('Cards in hand', inputs.hand));
    return { inputs, element };
  });
  return {
    element: h('div', { class: 'round-fields' }, seats.map((seat) => seat.element)),
    read: () => ({
      players: seats.map((seat) => Object.fromEntries(Object.entries(seat.inputs)
        .map(([stack, input]) => [stack, words(input.value).map((card) => card.toUpperCase())]))),
    }),
    fill(tally) {
      seats.forEach((seat, index) => {
        const cards = (tally.players || [])[index] || {};
        for (const [stack, input] of Object.entries(seat.inputs)) input.value = (cards[stack] || []).join(' ');
      });
    },
    fieldFor: (params) => (seats[params.seat] || seats[0]).inputs.plus,
  };
}

function parseGuests(text) {
  const pairs = words(text).map((pair) => pair.split('/').map(Number));
  if (pairs.length === 0) return null;
  if (pairs.length !== 3 || pairs.some((pair) => pair.length !== 2 || pair.some(Number.isNaN))) {
    throw Object.assign(new Error('Write three Guests as A/B points, like 0/2 1/0 0/0'), { fieldName: 'guests' });
  }
  return pairs;
}

function luckyLuau(players) {
  const seats = players.map((player) => {
    const lei = h('input', { type: 'text', name: `lei-${player.seat}`, autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false' });
    const guests = h('input', { type: 'text', name: `guests-${player.seat}`, autocomplete: 'off', inputmode: 'text' });
    const element = seatFieldset(player.name,
      field('Lei, left to right', lei, 'Words: yellow red blue pink purple orange green rainbow ti mega kukui hook spacer; cut:<card> for the Knife, rainbow:<colour>'),
      field('Guest bonuses (optional)', guests, 'Side A/side B for Guests 1 to 3, like 0/2 1/0 0/0'));
    return { player, lei, guests, element };
  });
  return {
    element: h('div', { class: 'round-fields' }, seats.map((seat) => seat.element)),
    read() {
      return {
        leis: seats.map((seat) => {
          let guests;
          try { guests = parseGuests(seat.guests.value); } catch (error) { error.control = seat.guests; throw error; }
          const entry = { player: seat.player.name, lei: seat.lei.value.trim() };
          if (guests) entry.guests = guests;
          return entry;
        }),
      };
    },
    fill(tally) {
      seats.forEach((seat, index) => {
        const entry = (tally.leis || [])[index] || {};
        seat.lei.value = Array.isArray(entry.lei) ? entry.lei.join(' ') : (entry.lei || '');
        seat.guests.value = (entry.guests || []).map((pair) => pair.join('/')).join(' ');
      });
    },
    fieldFor: (params) => (seats[params.seat] || seats[0]).lei,
  };
}

const FORMS = { 'lucky-jack': luckyJack, 'luck-plus': luckPlus, 'lucky-dice': luckyDice, 'plus-minus': plusMinus, 'lucky-luau': luckyLuau };

/** The round form of `game` for these players. */
export function roundForm(game, players) {
  const make = FORMS[game];
  if (!make) throw new Error(`no round form for ${game}`);
  const form = make(players);
  form.element.id ||= uid('round');
  return form;
}

const nameOf = (players, seat) => (players[seat] ? players[seat].name : `seat ${seat}`);

/** One line saying what an entry recorded, in the game's terms. */
export function describeTally(game, tally, players) {
  switch (game) {
    case 'lucky-jack':
      return tally.jackpot
        ? `${nameOf(players, tally.jackpot.seat)}: jackpot of ${tally.jackpot.size} ${tally.jackpot.symbol}`
        : 'No jackpot';
    case 'luck-plus': {
      const out = (tally.out || []).map((entry) => `${nameOf(players, entry.seat)} out${entry.luck_out ? ' (LUCK OUT)' : ''}`);
      const left = (tally.cards_left || []).map((cards, seat) => (cards.length ? `${nameOf(players, seat)}: ${cards.join(' ')}` : null)).filter(Boolean);
      return [out.join(', ') || 'Nobody out', left.length ? `left ${left.join('; ')}` : ''].filter(Boolean).join(' · ');
    }
    case 'lucky-dice':
      return `Emptied: ${(tally.emptied || []).map((seat) => nameOf(players, seat)).join(', ') || 'nobody'}`;
    case 'plus-minus':
      return (tally.players || []).map((cards, seat) => `${nameOf(players, seat)}: +${(cards.plus || []).join(' ') || '–'} −${(cards.minus || []).join(' ') || '–'} hand ${(cards.hand || []).join(' ') || '–'}`).join('; ');
    case 'lucky-luau':
      return (tally.leis || []).map((entry) => `${entry.player}: ${Array.isArray(entry.lei) ? entry.lei.join(' ') : entry.lei}`).join('; ');
    default:
      return JSON.stringify(tally);
  }
}

/** The service's breakdown of one scored round, for people. */
export function roundBreakdown(game, score, players) {
  if (!score) return null;
  switch (game) {
    case 'lucky-jack': {
      const result = score.result || {};
      return result.result === 'jackpot'
        ? h('p', {}, `${nameOf(players, result.seat)}: ${result.size} × ${result.symbol} = ${formatNumber(result.points)}`)
        : h('p', {}, `No jackpot (${String(result.reason || '').replaceAll('_', ' ')})`);
    }
    case 'lucky-luau':
      return h('div', { class: 'breakdown' }, (score.seats || []).map((seat) => h('section', { 'aria-label': `${seat.player || nameOf(players, seat.seat)}'s lei` },
        h('h4', {}, `${seat.player || nameOf(players, seat.seat)}: ${formatNumber(seat.total)}`),
        h('ol', { class: 'lines' }, (seat.lines || []).map((line) => h('li', {}, line))))));
    case 'plus-minus':
      return h('ul', { class: 'breakdown' }, (score.seats || []).map((seat, index) => h('li', {},
        `${nameOf(players, index)}: plus ${seat.plus_points} − minus ${seat.minus_points} − hand ${seat.hand_points} = ${seat.score}`)));
    case 'luck-plus':
      return h('p', {}, `Cards left worth: ${(score.left_points || []).map((points, seat) => `${nameOf(players, seat)} ${points}`).join(', ')}`);
    case 'lucky-dice':
      return h('p', {}, `Coasters: ${(score.emptied || []).map((seat) => nameOf(players, seat)).join(', ') || 'none'}`);
    default:
      return null;
  }
}
