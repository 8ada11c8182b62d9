// Cards and dice as pictures, and pickers to enter them by tapping. A card is the API's own JSON
// value for it (a Lucky Jack symbol, a Luck Plus card code, a Plus & Minus rank, a Lucky Luau
// card word, a Lucky Dice symbol). Pictures are inline SVG built here, coloured by cards.css
// through CSS variables (so dark mode follows), each with the card's name in words beside it.

import { h, uid, announce, svg as s } from './dom.js';


// --- names -------------------------------------------------------------------------------------

const JACK_NAMES = { lemon: 'Lemon', cherry: 'Cherry', grape: 'Grape', clover: 'Clover', bell: 'Bell', seven: 'Seven', jack: 'Jack' };
const DICE_NAMES = { clover: 'Four-leaf clover', pig: 'Lucky pig', cat: 'Beckoning cat', penny: 'Lucky penny', horseshoe: 'Horseshoe', hamsa: 'Hand of Fatima' };
const RANK_NAMES = { A: 'Ace', 2: 'Two', 3: 'Three', 4: 'Four', 5: 'Five', 6: 'Six', 7: 'Seven', 8: 'Eight', 9: 'Nine', 10: 'Ten', J: 'Jack', Q: 'Queen', K: 'King' };
const LUAU_NAMES = {
  yellow: 'Yellow Flower', red: 'Red Flower', blue: 'Blue Flower', pink: 'Pink Flower',
  purple: 'Purple Flower', orange: 'Orange Flower', green: 'Green Flower', rainbow: 'Rainbow Flower',
  ti: 'Ti Leaf', mega: 'Mega Leaf', kukui: 'Kukui Nut', hook: 'Fish Hook', spacer: 'Spacer',
};
const LUCK_KINDS = { GO: 'Go', STOP: 'Stop', TR: 'Transfer', TP: 'Transfer Plus' };
const COLOUR_NAMES = { yellow: 'Yellow', red: 'Red', blue: 'Blue', pink: 'Pink' };

/** The distinct cards of each game, in the order a picker offers them. */
export const JACK_SYMBOLS = Object.keys(JACK_NAMES);
export const DICE_SYMBOLS = Object.keys(DICE_NAMES);
export const RANKS = ['A', 'K', 'Q', 'J', '10', '9', '8', '7', '6', '5', '4', '3', '2'];
export const LUAU_CARDS = Object.keys(LUAU_NAMES);
export const RAINBOW_COLOURS = Object.keys(COLOUR_NAMES);
export const LUCK_PLUS_CARDS = [
  ...['GO', 'STOP', 'TR'].flatMap((kind) => Array.from({ length: 12 }, (_, index) => `${kind}-${index + 1}`)),
  'TP-1', 'TP-2', 'TP-3', 'TP-4', 'DBL', 'LP',
];

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const plain = (text) => String(text).replaceAll('_', ' ').replaceAll('-', ' ');

function luckParts(card) {
  const match = /^(GO|STOP|TR|TP)-(\d+)$/.exec(String(card));
  return match ? { kind: match[1], number: Number(match[2]) } : null;
}

/** The card in plain words ("Go 3", "Ace", "Lemon", "Rainbow Flower as Blue"). */
export function cardLabel(game, card) {
  if (typeof card === 'number') return `Die showing ${card}`;
  if (card && typeof card === 'object') {
    if ('left' in card && 'right' in card) return `Coaster: ${cardLabel('lucky-dice', card.left)} to the left, ${cardLabel('lucky-dice', card.right)} to the right`;
    return 'a card';
  }
  const text = String(card ?? '');
  switch (game) {
    case 'lucky-jack':
      if (JACK_NAMES[text]) return JACK_NAMES[text];
      break;
    case 'lucky-dice':
      if (DICE_NAMES[text]) return DICE_NAMES[text];
      break;
    case 'plus-minus':
      if (RANK_NAMES[text]) return RANK_NAMES[text];
      break;
    case 'luck-plus': {
      if (text === 'DBL') return 'Doubles';
      if (text === 'LP') return 'Luck Plus';
      const parts = luckParts(text);
      if (parts && LUCK_KINDS[parts.kind]) return `${LUCK_KINDS[parts.kind]} ${parts.number}`;
      break;
    }
    case 'lucky-luau': {
      const [head, tail] = text.split(':');
      if (tail !== undefined && (head === 'cut' || head === 'knife')) return `${cardLabel(game, tail)}, cut by the Knife`;
      if (tail !== undefined && head === 'rainbow') return `Rainbow Flower as ${COLOUR_NAMES[tail] || capital(plain(tail))}`;
      if (LUAU_NAMES[text]) return LUAU_NAMES[text];
      break;
    }
    default:
      break;
  }
  return capital(plain(text));
}

// --- reading what people type ------------------------------------------------------------------

const NUMBER_WORDS = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, thirteen: 13 };
const EXAMPLES = {
  'lucky-jack': 'lemon, cherry, grape, clover, bell, seven or jack',
  'lucky-dice': 'clover, pig, cat, penny, horseshoe or hamsa',
  'plus-minus': 'ace, 2 to 10, jack, queen or king (or A, J, Q, K)',
  'luck-plus': 'Go 3, Stop 12, Transfer 7, Transfer Plus 2, Doubles or Luck Plus (or GO-3, TR-7, TP-2, DBL, LP)',
  'lucky-luau': 'yellow, red, blue, pink, purple, orange, green, rainbow, ti, mega, kukui, hook, spacer; "rainbow as blue"; "cut yellow" for the Knife',
};

function refuse(text, game, why) {
  return new Error(`"${text}" is not a card we know${why ? ` (${why})` : ''}. Try ${EXAMPLES[game] || 'a card name'}.`);
}

function numberOf(word) {
  if (/^\d+$/.test(word)) return Number(word);
  return NUMBER_WORDS[word] ?? null;
}

function luauWord(word) {
  const w = word.replace(/[\s_-]+/g, ' ').replace(/ flowers?$/, '').replace(/s$/, '').trim();
  const aliases = { ti: 'ti', 'ti leaf': 'ti', leaf: 'ti', leave: 'ti', mega: 'mega', 'mega leaf': 'mega', 'mega leave': 'mega', kukui: 'kukui', 'kukui nut': 'kukui', nut: 'kukui', hook: 'hook', 'fish hook': 'hook', fishhook: 'hook', spacer: 'spacer' };
  if (LUAU_NAMES[w]) return w;
  return aliases[w] || aliases[word] || null;
}

/** `text` typed by a person, in any common spelling, as the game's card; throws if none. */
export function parseCard(game, text) {
  const raw = String(text ?? '').trim();
  const word = raw.toLowerCase().replace(/\s+/g, ' ');
  if (!word) throw new Error('Type a card, or tap one.');
  switch (game) {
    case 'lucky-jack': {
      const aliases = { 7: 'seven', j: 'jack', lemons: 'lemon', cherries: 'cherry', grapes: 'grape', clovers: 'clover', bells: 'bell', sevens: 'seven', jacks: 'jack', 'four-leaf clover': 'clover', 'four leaf clover': 'clover' };
      const card = JACK_NAMES[word] ? word : aliases[word];
      if (card) return card;
      break;
    }
    case 'lucky-dice': {
      const found = Object.entries(DICE_NAMES).find(([key, name]) => key === word || name.toLowerCase() === word
        || `${key}s` === word || (key === 'hamsa' && /fatima/.test(word)) || (key === 'clover' && /clover/.test(word)));
      if (found) return found[0];
      break;
    }
    case 'plus-minus': {
      const letters = { a: 'A', ace: 'A', aces: 'A', k: 'K', king: 'K', kings: 'K', q: 'Q', queen: 'Q', queens: 'Q', j: 'J', jack: 'J', jacks: 'J', t: '10' };
      if (letters[word]) return letters[word];
      const number = numberOf(word.replace(/s$/, ''));
      if (number === 1) return 'A';
      if (number >= 2 && number <= 10) return String(number);
      if (number === 11) return 'J';
      if (number === 12) return 'Q';
      if (number === 13) return 'K';
      break;
    }
    case 'luck-plus': {
      const compact = word.replace(/[\s_-]+/g, '');
      if (['dbl', 'double', 'doubles'].includes(compact)) return 'DBL';
      if (['lp', 'luckplus', 'luck+'].includes(compact)) return 'LP';
      const match = /^(go|stop|tr|transfer|tp|transferplus|tr\+|transfer\+)(\d+|[a-z]+)$/.exec(compact);
      if (match) {
        const kind = { go: 'GO', stop: 'STOP', tr: 'TR', transfer: 'TR', tp: 'TP', transferplus: 'TP', 'tr+': 'TP', 'transfer+': 'TP' }[match[1]];
        const number = numberOf(match[2]);
        if (number === null) break;
        const top = kind === 'TP' ? 4 : 12;
        if (number < 1 || number > top) {
          throw Object.assign(new Error(`There is no ${LUCK_KINDS[kind]} ${number} card: ${LUCK_KINDS[kind]} cards go from 1 to ${top}.`), { certain: true });
        }
        return `${kind}-${number}`;
      }
      break;
    }
    case 'lucky-luau': {
      const cut = /^(?:cut|knife)\s*[:= ]\s*(.+)$/.exec(word);
      if (cut) {
        const what = luauWord(cut[1]);
        if (!what) throw refuse(raw, game, 'the Knife can cut any card of the lei');
        return `cut:${what}`;
      }
      const rainbow = /^rainbow(?: flower)?\s*(?:[:=]|as|\s)\s*(\w+)$/.exec(word);
      if (rainbow) {
        if (!COLOUR_NAMES[rainbow[1]]) throw Object.assign(new Error(`A Rainbow Flower can only act as Yellow, Red, Blue or Pink, not "${rainbow[1]}".`), { certain: true });
        return `rainbow:${rainbow[1]}`;
      }
      const card = luauWord(word);
      if (card) return card;
      break;
    }
    default:
      return raw;
  }
  throw refuse(raw, game);
}

/** Splits typed text into cards: "A K 10", "go 3, stop 12", "rainbow as blue" (several words a card). */
export function parseCards(game, text) {
  const pieces = String(text || '').split(/[,;]+/).map((piece) => piece.trim()).filter(Boolean);
  const cards = [];
  for (const piece of pieces) {
    try {
      cards.push(parseCard(game, piece));
      continue;
    } catch (error) {
      if (error.certain || !/\s/.test(piece)) throw error;
    }
    // Several cards in one piece, separated by spaces: join the words a card may be spelt with.
    const words = piece.split(/\s+/);
    for (let index = 0; index < words.length;) {
      let taken = 0;
      for (let size = Math.min(3, words.length - index); size > 0; size -= 1) {
        try {
          cards.push(parseCard(game, words.slice(index, index + size).join(' ')));
          taken = size;
          break;
        } catch (error) {
          if (size === 1) throw error;
        }
      }
      index += taken;
    }
  }
  return cards;
}

/** How many copies of `card` the game's deck holds (Infinity when it does not say). */
export function deckCount(game, card) {
  if (typeof card === 'number') return Infinity; // a die's face
  switch (game) {
    case 'lucky-jack': return 12;
    case 'plus-minus': return 4;
    case 'luck-plus': {
      if (card === 'DBL') return 6;
      if (card === 'LP') return 8;
      const parts = luckParts(card);
      if (!parts) return 0;
      const n = parts.number;
      if (parts.kind === 'GO') return 4;
      if (parts.kind === 'STOP') return n <= 10 ? 2 : 1;
      if (parts.kind === 'TR') return n <= 4 ? 1 : 2;
      return 1;
    }
    case 'lucky-luau': {
      const base = String(card).startsWith('rainbow') ? 'rainbow' : String(card);
      const counts = { yellow: 7, red: 6, blue: 5, pink: 4, purple: 2, orange: 2, green: 2, rainbow: 2, ti: 8, mega: 2, kukui: 6, hook: 1, spacer: 1 };
      return String(card).startsWith('cut:') ? 1 : (counts[base] ?? Infinity);
    }
    default: return Infinity;
  }
}

// --- pictures ----------------------------------------------------------------------------------


const circle = (cx, cy, r, cls) => s('circle', { cx, cy, r, class: cls });
const text = (x, y, content, cls = 't-ink', size = 20) => s('text', { x, y, class: cls, 'font-size': size, 'text-anchor': 'middle', 'dominant-baseline': 'central', text: content });

function clover() {
  return [s('path', { d: 'M20 22 Q22 31 27 36', class: 's-green', fill: 'none', 'stroke-width': 3 }),
    circle(14, 14, 7, 'f-green'), circle(26, 14, 7, 'f-green'), circle(14, 26, 7, 'f-green'), circle(26, 26, 7, 'f-green'), circle(20, 20, 3, 'f-light')];
}

const JACK_ART = {
  lemon: () => [s('ellipse', { cx: 20, cy: 21, rx: 15, ry: 10, class: 'f-yellow' }), circle(5, 21, 3, 'f-yellow'), circle(35, 21, 3, 'f-yellow'), s('path', { d: 'M18 12 Q22 6 28 8', class: 's-green', fill: 'none', 'stroke-width': 2.5 })],
  cherry: () => [s('path', { d: 'M13 24 Q16 11 25 5 M28 24 Q27 13 25 5', class: 's-green', fill: 'none', 'stroke-width': 2.5 }), circle(12, 28, 8, 'f-red'), circle(28, 28, 8, 'f-red'), circle(10, 25, 2, 'f-light')],
  grape: () => [s('path', { d: 'M20 8 L22 2', class: 's-green', 'stroke-width': 3 }),
    ...[[12, 11], [20, 11], [28, 11], [16, 19], [24, 19], [12, 27], [28, 27], [20, 27], [20, 34]].map(([x, y]) => circle(x, y, 5, 'f-purple'))],
  clover,
  bell: () => [s('path', { d: 'M20 4 C11 4 10 15 9 26 L5 30 L35 30 L31 26 C30 15 29 4 20 4 Z', class: 'f-gold' }), circle(20, 33, 4, 'f-gold')],
  seven: () => [text(20, 21, '7', 't-red', 34)],
  jack: () => [s('path', { d: 'M6 14 L12 22 L20 8 L28 22 L34 14 L31 34 L9 34 Z', class: 'f-gold' }), text(20, 27, 'J', 't-red', 14)],
};

const DICE_ART = {
  clover,
  pig: () => [circle(20, 22, 14, 'f-pink'), s('path', { d: 'M8 12 L10 2 L17 9 Z M32 12 L30 2 L23 9 Z', class: 'f-pink' }), s('ellipse', { cx: 20, cy: 26, rx: 7, ry: 5, class: 'f-rose' }), circle(17, 26, 1.6, 'f-ink'), circle(23, 26, 1.6, 'f-ink'), circle(14, 17, 2, 'f-ink'), circle(26, 17, 2, 'f-ink')],
  cat: () => [circle(18, 24, 12, 'f-light s-ink'), s('path', { d: 'M8 18 L9 5 L16 13 Z M28 18 L27 5 L20 13 Z', class: 'f-light s-ink' }), s('rect', { x: 30, y: 6, width: 6, height: 18, rx: 3, class: 'f-light s-ink' }), circle(14, 22, 1.8, 'f-ink'), circle(22, 22, 1.8, 'f-ink'), s('path', { d: 'M15 29 Q18 31 21 29', class: 's-ink', fill: 'none' })],
  penny: () => [circle(20, 20, 16, 'f-copper'), circle(20, 20, 12, 'f-none s-dark'), text(20, 21, '1¢', 't-dark', 13)],
  horseshoe: () => [s('path', { d: 'M9 34 L9 20 A11 11 0 0 1 31 20 L31 34', class: 's-grey', fill: 'none', 'stroke-width': 7, 'stroke-linecap': 'round' }), circle(9, 24, 1.3, 'f-light'), circle(31, 24, 1.3, 'f-light'), circle(12, 14, 1.3, 'f-light'), circle(28, 14, 1.3, 'f-light')],
  hamsa: () => [s('path', { d: 'M11 36 Q6 28 8 22 L8 10 Q10 7 12 10 L12 20 L14 20 L14 6 Q16 3 18 6 L18 19 L22 19 L22 6 Q24 3 26 6 L26 20 L28 20 L28 10 Q30 7 32 10 L32 22 Q34 28 29 36 Z', class: 'f-blue' }), s('ellipse', { cx: 20, cy: 28, rx: 5, ry: 3, class: 'f-light' }), circle(20, 28, 1.8, 'f-ink')],
};

function luckArt(card) {
  if (card === 'DBL') {
    return [s('rect', { x: 3, y: 10, width: 16, height: 16, rx: 3, class: 'f-light s-ink' }), s('rect', { x: 21, y: 14, width: 16, height: 16, rx: 3, class: 'f-light s-ink' }),
      circle(7, 14, 1.8, 'f-ink'), circle(15, 22, 1.8, 'f-ink'), circle(25, 18, 1.8, 'f-ink'), circle(33, 26, 1.8, 'f-ink')];
  }
  if (card === 'LP') {
    return [s('path', { d: 'M20 2 L25 15 L38 20 L25 25 L20 38 L15 25 L2 20 L15 15 Z', class: 'f-gold s-ink' }), text(20, 21, '+', 't-ink', 16)];
  }
  const parts = luckParts(card);
  if (!parts) return [text(20, 20, '?')];
  const number = String(parts.number);
  const size = number.length > 1 ? 15 : 19;
  switch (parts.kind) {
    case 'GO': return [circle(20, 20, 17, 'f-green'), text(20, 21, number, 't-light', size)];
    case 'STOP': return [s('path', { d: 'M13 3 L27 3 L37 13 L37 27 L27 37 L13 37 L3 27 L3 13 Z', class: 'f-red' }), text(20, 21, number, 't-light', size)];
    case 'TR': return [s('path', { d: 'M2 12 L24 12 L24 4 L38 20 L24 36 L24 28 L2 28 Z', class: 'f-yellow s-ink' }), text(16, 21, number, 't-dark', size - 3)];
    default: return [s('path', { d: 'M2 12 L24 12 L24 4 L38 20 L24 36 L24 28 L2 28 Z', class: 'f-orange s-ink' }), text(14, 21, number, 't-dark', size - 3), text(31, 9, '+', 't-ink', 12)];
  }
}

const LUAU_PETALS = {
  yellow: ['f-yellow'], red: ['f-red'], blue: ['f-blue'], pink: ['f-pink'],
  purple: ['f-red', 'f-blue'], orange: ['f-red', 'f-yellow'], green: ['f-yellow', 'f-blue'],
  rainbow: ['f-yellow', 'f-red', 'f-blue', 'f-pink', 'f-purple'],
};
const LUAU_HEART = { purple: 'f-purple', orange: 'f-orange', green: 'f-green', rainbow: 'f-light' };

function flower(card, heart) {
  const petals = LUAU_PETALS[card];
  const shapes = [];
  for (let index = 0; index < 5; index += 1) {
    const angle = (index * 72 - 90) * (Math.PI / 180);
    shapes.push(circle((20 + 11 * Math.cos(angle)).toFixed(1), (20 + 11 * Math.sin(angle)).toFixed(1), 8, petals[index % petals.length]));
  }
  shapes.push(circle(20, 20, 6, heart || LUAU_HEART[card] || 'f-gold'));
  return shapes;
}

function luauArt(card) {
  const [head, tail] = String(card).split(':');
  if (tail !== undefined && (head === 'cut' || head === 'knife')) {
    return [s('g', { class: 'cut', opacity: 0.55 }, luauArt(tail)),
      s('path', { d: 'M4 36 L30 10 L36 4 L34 12 L8 38 Z', class: 'f-grey s-ink' }), s('rect', { x: 2, y: 31, width: 10, height: 5, rx: 2, transform: 'rotate(-45 7 33)', class: 'f-brown' })];
  }
  if (tail !== undefined && head === 'rainbow') return [...flower('rainbow'), circle(20, 20, 9, `f-${tail} s-ink`)];
  if (LUAU_PETALS[card]) return flower(card);
  switch (card) {
    case 'ti': return [s('path', { d: 'M6 36 Q4 12 34 4 Q34 30 6 36 Z', class: 'f-green' }), s('path', { d: 'M6 36 Q18 20 30 8', class: 's-light', fill: 'none', 'stroke-width': 1.5 })];
    case 'mega': return [s('path', { d: 'M3 38 Q0 8 38 2 Q40 36 3 38 Z', class: 'f-darkgreen' }), s('path', { d: 'M3 38 Q20 18 34 6 M12 28 L10 18 M20 21 L28 24', class: 's-light', fill: 'none', 'stroke-width': 1.5 })];
    case 'kukui': return [circle(20, 21, 14, 'f-brown'), s('ellipse', { cx: 15, cy: 15, rx: 4, ry: 3, class: 'f-light', opacity: 0.7 })];
    case 'hook': return [s('path', { d: 'M22 3 L22 26 A8 8 0 0 1 6 26 L6 20 L11 24', class: 's-grey', fill: 'none', 'stroke-width': 3.5, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' }), circle(22, 4, 3, 'f-none s-grey')];
    case 'spacer': return [s('rect', { x: 6, y: 4, width: 28, height: 32, rx: 4, class: 'f-none s-ink', 'stroke-dasharray': '4 3', 'stroke-width': 2 }), text(20, 20, '…', 't-ink', 16)];
    default: return [text(20, 20, '?')];
  }
}

function art(game, card) {
  const key = String(card);
  switch (game) {
    case 'lucky-jack': return JACK_ART[key] ? JACK_ART[key]() : [text(20, 20, '?')];
    case 'lucky-dice': return DICE_ART[key] ? DICE_ART[key]() : [text(20, 20, '?')];
    case 'luck-plus': return luckArt(key);
    case 'lucky-luau': return luauArt(key);
    case 'plus-minus': return [text(20, 21, key, RANK_NAMES[key] ? 't-ink' : 't-ink', key.length > 1 ? 22 : 28)];
    default: return [text(20, 20, key.slice(0, 3))];
  }
}

function cross() {
  return s('svg', { viewBox: '0 0 12 12', width: 12, height: 12, 'aria-hidden': 'true', focusable: 'false', class: 'cross' },
    s('path', { d: 'M2 2 L10 10 M10 2 L2 10', 'stroke-width': 2.2, 'stroke-linecap': 'round' }));
}

function picture(children) {
  return s('svg', { viewBox: '0 0 40 40', width: 40, height: 40, 'aria-hidden': 'true', focusable: 'false', class: 'card-art' }, children);
}

function kindClass(game, card) {
  if (game === 'luck-plus') {
    if (card === 'DBL') return 'kind-dbl';
    if (card === 'LP') return 'kind-lp';
    const parts = luckParts(card);
    return parts ? `kind-${parts.kind.toLowerCase()}` : '';
  }
  if (game === 'lucky-luau') return `kind-${String(card).split(':')[0]}`;
  return '';
}

/** The card as a picture (an element with role img and the label as its name). */
export function cardFace(game, card, { small = false } = {}) {
  if (typeof card === 'number') return dieFace(card, { small }); // dice rolls pick from faces 1–6
  const label = cardLabel(game, card);
  if (card && typeof card === 'object' && 'left' in card && 'right' in card) {
    return h('span', { class: `card-face coaster${small ? ' small' : ''}`, role: 'img', 'aria-label': label },
      picture(DICE_ART[card.left] ? DICE_ART[card.left]() : []), h('span', { class: 'card-name', 'aria-hidden': 'true' }, 'Coaster'),
      picture(DICE_ART[card.right] ? DICE_ART[card.right]() : []));
  }
  // Small faces of a Knife's cut show the card alone (the picker around them says "cut").
  const cut = game === 'lucky-luau' && small && /^(cut|knife):/.test(String(card));
  const caption = cut ? cardLabel(game, String(card).split(':')[1]) : label;
  return h('span', { class: `card-face game-${game} ${kindClass(game, card)}${small ? ' small' : ''}`, role: 'img', 'aria-label': label },
    picture(art(game, card)),
    h('span', { class: 'card-name', 'aria-hidden': 'true' }, caption));
}

const PIPS = {
  1: [[20, 20]], 2: [[11, 11], [29, 29]], 3: [[11, 11], [20, 20], [29, 29]],
  4: [[11, 11], [29, 11], [11, 29], [29, 29]], 5: [[11, 11], [29, 11], [20, 20], [11, 29], [29, 29]],
  6: [[11, 10], [29, 10], [11, 20], [29, 20], [11, 30], [29, 30]],
};

/** A die showing `value`: a number 1–6 as pips, or a Lucky Dice symbol. */
export function dieFace(value, { small = false } = {}) {
  const number = Number(value);
  const isNumber = Number.isInteger(number) && PIPS[number];
  const label = isNumber ? `Die showing ${number}` : `Die showing ${cardLabel('lucky-dice', value)}`;
  const body = s('rect', { x: 1.5, y: 1.5, width: 37, height: 37, rx: 7, class: 'f-die s-ink', 'stroke-width': 2 });
  const face = isNumber
    ? PIPS[number].map(([x, y]) => circle(x, y, 3.6, 'f-pip'))
    : [s('g', { transform: 'translate(6 6) scale(0.7)' }, DICE_ART[value] ? DICE_ART[value]() : [text(20, 20, '?')])];
  return h('span', { class: `die-face${small ? ' small' : ''}`, role: 'img', 'aria-label': label },
    s('svg', { viewBox: '0 0 40 40', width: 40, height: 40, 'aria-hidden': 'true', focusable: 'false', class: 'die-art' }, body, face),
    isNumber ? null : h('span', { class: 'card-name', 'aria-hidden': 'true' }, cardLabel('lucky-dice', value)));
}

// --- the picker ---------------------------------------------------------------------------------

function rowKey(game, card) {
  if (game === 'luck-plus') return luckParts(card) ? luckParts(card).kind : 'special';
  if (game === 'lucky-luau') {
    const key = String(card);
    if (key.startsWith('rainbow:')) return 'rainbow';
    if (key.startsWith('cut:')) return 'cut';
    return ['ti', 'mega', 'kukui', 'hook', 'spacer'].includes(key) ? 'other' : 'flowers';
  }
  return 'all';
}

/**
 * The cards offered as tappable pictures; tapped ones join the selection (shown in order, each
 * removable by a tap). `cards`: the distinct API values on offer; `max`: most cards in all
 * (default: no limit); each card can be picked as often as the game's deck holds it, or as
 * `limit` says (a function of the card, or an object by card: e.g. a pile's counts). `typing`
 * (default true) adds an "Or type them" field that reads common spellings.
 * Returns `{element, value(), set(cards), clear(), flush(), focusTarget}`; `element` is the group
 * (a fieldset with an error slot, for refusals placed by `showFieldError`).
 */
export function cardPicker({ game, cards, label, ordered = false, max = Infinity, onChange = () => {}, typing = true, hint = null, emptyText = 'None yet', limit = null }) {
  const id = uid('picker');
  let picked = [];
  const legendId = `${id}-legend`;
  const chosenList = h(ordered ? 'ol' : 'ul', { class: `picked${ordered ? ' ordered' : ''}`, 'aria-label': `${label}: picked` });
  const empty = h('p', { class: 'picked-empty muted' }, emptyText);
  const offerButtons = new Map();
  const rows = [];
  let currentRow = null;
  let currentKey = null;
  for (const card of cards) {
    const key = rowKey(game, card);
    if (key !== currentKey) {
      currentRow = h('div', { class: 'offer-row' });
      rows.push(currentRow);
      currentKey = key;
    }
    const count = h('span', { class: 'count', 'aria-hidden': 'true' }); // its number is drawn by CSS (data-count)
    // Named by its content ("Add " + the picture's name), so the name always holds what is seen.
    const button = h('button', { type: 'button', class: 'card-button' }, h('span', { class: 'visually-hidden' }, 'Add '), cardFace(game, card, { small: true }), count);
    button.addEventListener('click', () => add([card], true));
    offerButtons.set(card, { button, count });
    currentRow.append(button);
  }
  const offer = h('div', { class: 'offer', role: 'group', 'aria-label': `Tap to add to ${label.toLowerCase()}` }, rows);

  let typed = null;
  let typingBox = null;
  if (typing) {
    typed = h('input', { type: 'text', id: `${id}-typed`, autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false', enterkeyhint: 'done' });
    const typedError = h('p', { class: 'error', id: `${id}-typed-error`, hidden: true });
    const typedHint = h('p', { class: 'hint', id: `${id}-typed-hint` }, `Like ${EXAMPLES[game] || 'a card name'}. Separate cards with spaces or commas.`);
    typed.setAttribute('aria-describedby', typedHint.id);
    const addTyped = h('button', { type: 'button', class: 'secondary' }, 'Add');
    addTyped.addEventListener('click', () => { flushTyped(true); });
    typed.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        flushTyped(true);
      }
    });
    typingBox = h('details', { class: 'type-instead' }, h('summary', {}, 'Type instead'),
      h('div', { class: 'field' }, h('label', { for: typed.id }, 'Or type them'), typedHint, h('div', { class: 'typed-row' }, typed, addTyped), typedError));
  }

  const error = h('p', { class: 'error', id: `${id}-error`, hidden: true });
  const element = h('fieldset', { class: `picker game-${game}`, id, tabindex: -1 },
    h('legend', { id: legendId }, label),
    hint ? h('p', { class: 'hint' }, hint) : null,
    h('div', { class: 'picked-box' }, empty, chosenList),
    error,
    offer,
    typingBox);

  function limitOf(card) {
    if (typeof limit === 'function') return limit(card);
    if (limit && typeof limit === 'object') return limit[card] ?? 0;
    return deckCount(game, card);
  }

  function countOf(card) {
    const base = (value) => (game === 'lucky-luau' && String(value).startsWith('rainbow') ? 'rainbow' : value);
    return picked.filter((value) => base(value) === base(card)).length;
  }

  function render() {
    chosenList.replaceChildren();
    picked.forEach((card, index) => {
      const name = cardLabel(game, card);
      const remove = h('button', { type: 'button', class: 'chip' },
        h('span', { class: 'visually-hidden' }, 'Remove '),
        cardFace(game, card, { small: true }),
        ordered ? h('span', { class: 'visually-hidden' }, `(card ${index + 1})`) : null,
        cross());
      remove.addEventListener('click', () => removeAt(index));
      chosenList.append(h('li', {}, remove));
    });
    empty.hidden = picked.length > 0;
    chosenList.hidden = picked.length === 0;
    const full = picked.length >= max;
    for (const [card, { button, count }] of offerButtons) {
      const n = picked.filter((value) => value === card).length;
      if (n) count.dataset.count = `×${n}`;
      else delete count.dataset.count;
      button.classList.toggle('has', n > 0);
      button.disabled = full || countOf(card) >= limitOf(card);
    }
  }

  function clearError() {
    element.removeAttribute('aria-invalid');
    error.hidden = true;
    error.textContent = '';
  }

  function add(list, speak) {
    const added = [];
    for (const card of list) {
      if (picked.length >= max) break;
      if (countOf(card) >= limitOf(card)) {
        const limit = limitOf(card);
        throw Object.assign(new Error(`The game has ${limit === 1 ? 'only one' : `only ${limit}`} ${cardLabel(game, card)}${limit === 1 ? '' : ' cards'}.`), { control: typed || element });
      }
      picked.push(card);
      added.push(card);
    }
    clearError();
    render();
    if (speak && added.length) announce(`${added.map((card) => cardLabel(game, card)).join(', ')} added to ${label.toLowerCase()}: ${picked.length} ${picked.length === 1 ? 'card' : 'cards'}.`);
    onChange(picked.slice());
  }

  function removeAt(index) {
    const [card] = picked.splice(index, 1);
    clearError();
    render();
    announce(`${cardLabel(game, card)} taken off ${label.toLowerCase()}: ${picked.length} ${picked.length === 1 ? 'card' : 'cards'} left.`);
    const buttons = chosenList.querySelectorAll('button');
    (buttons[Math.min(index, buttons.length - 1)] || offer.querySelector('button:not(:disabled)') || element).focus();
    onChange(picked.slice());
  }

  /** Adds what is typed (if anything); a word that is no card throws, its message placed by the field. */
  function flushTyped(speak = false) {
    if (!typed || !typed.value.trim()) return;
    const errorSlot = document.getElementById(`${typed.id}-error`) || typingBox.querySelector('.error');
    try {
      const list = parseCards(game, typed.value);
      add(list, speak);
      typed.value = '';
      typed.removeAttribute('aria-invalid');
      if (errorSlot) { errorSlot.hidden = true; errorSlot.textContent = ''; }
    } catch (caught) {
      typingBox.open = true;
      const failure = caught.control ? caught : Object.assign(caught, { control: typed });
      if (speak) {
        typed.setAttribute('aria-invalid', 'true');
        errorSlot.textContent = failure.message;
        errorSlot.hidden = false;
        const described = (typed.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);
        if (!described.includes(errorSlot.id)) typed.setAttribute('aria-describedby', [...described, errorSlot.id].join(' '));
        typed.focus();
        announce(failure.message);
        return;
      }
      throw failure;
    }
  }

  render();
  return {
    element,
    value: () => picked.slice(),
    set(list) {
      picked = [];
      for (const card of list || []) picked.push(card);
      clearError();
      render();
    },
    clear() {
      picked = [];
      if (typed) typed.value = '';
      clearError();
      render();
    },
    flush: () => flushTyped(false),
    get typed() { return typed; },
  };
}
