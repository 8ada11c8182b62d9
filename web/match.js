// Hosted matches: the table as a seat (or a spectator) sees it. Whose turn in words, the game's
// own table (your hand first, piles and dice as pictures), the legal moves as cards that say what
// they do (which cannot be taken back, said once), a question only before a move that ends the
// game and a take-back after what can be taken back, chance reports entered by tapping cards and
// dice (table randomness), standings, a short log, and the owner's controls. The per-game parts
// come from `tables/index.js`; this module is the shell.

import { get, post, api, follow, keyedDownload, enterHand, enteredHands } from './api.js';
import { h, replace, field, uid, showFieldError, clearFieldErrors, announce, formatNumber, formatTime, words, linkForPhones, phonesCannotReach } from './dom.js';
import { games, gameTitle, eveningCard } from './sheet.js';
import { seatToken, rememberSeat, forgetSeat, ownerToken, hostedMatch, rememberInvite, rememberHosted, myHostedMatches, household } from './store.js';
import { followerLine } from './household.js';
import { refusalWords, showRefusal } from './messages.js';
import * as cards from './cards.js';
import { tableFor } from './tables/index.js';
import { sentences } from './tables/common.js';
import { drawQr } from './qr.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SHORT_LOG = 8;

/** "Ann", "Ann and Ben", "Ann, Ben and Cleo". */
export function nameList(list) {
  if (list.length <= 1) return list.join('');
  return `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`;
}

const possessive = (name) => `${name}’s`;

/** Shows `error` in words in `slot` (a `.error` paragraph beside what caused it), or next to
 * `control` when there is one, and says it to screen readers. */
function sayRefusal(error, ctx, slot, control = null) {
  showRefusal(error, { control, slot, context: ctx, focusSlot: false });
}

// --- an in-page "Are you sure?" -----------------------------------------------------------------

/** Asks `question` in a modal dialog; resolves true on `yes`, false on the other button or Escape. */
export function confirmDialog({ title = 'Are you sure?', text, yes, no = 'Cancel' }) {
  return new Promise((resolve) => {
    const titleId = uid('confirm');
    const textId = uid('confirm-text');
    const returnTo = document.activeElement;
    let answered = false;
    const dialog = h('dialog', { class: 'confirm', 'aria-labelledby': titleId, 'aria-describedby': textId });
    const finish = (answer) => {
      if (answered) return;
      answered = true;
      dialog.close();
      dialog.remove();
      if (returnTo && returnTo.isConnected) returnTo.focus();
      resolve(answer);
    };
    const noButton = h('button', { type: 'button', class: 'secondary', onclick: () => finish(false) }, no);
    replace(dialog,
      h('h2', { id: titleId }, title),
      h('p', { id: textId }, text),
      h('div', { class: 'buttons' }, h('button', { type: 'button', onclick: () => finish(true) }, yes), noButton));
    dialog.addEventListener('cancel', (event) => { event.preventDefault(); finish(false); });
    document.body.append(dialog);
    dialog.showModal();
    // The safe answer has the focus: a stray tap on Enter changes nothing.
    noButton.focus();
  });
}

// --- when to ask -------------------------------------------------------------------------------

// A move's words (from the game's table) that say the game ends with it.
const ENDS_GAME = /ends the game|the game ends|so does the game/i;

/**
 * Whether a move asks "Are you sure?" before it is played: only when it ends the game, whose
 * result is then final and rated. A move that merely cannot be taken back (a discard everyone
 * sees, a card the service draws at once) is said so once above the moves, never asked about:
 * asking before nearly every move of a card game made two taps of each (issue 41).
 */
export function endsGame(said) {
  return Boolean(said.irreversible) && (said.because === 'It ends the game' || ENDS_GAME.test(said.consequence || ''));
}

/** The one sentence above the moves about which cannot be taken back, and whether the cards
 * carry a "Final" tag: none when every move is final (the sentence says it for all). */
export function finalNote(said) {
  const finals = said.filter((move) => move.irreversible).length;
  if (finals === 0) return { text: '', tag: false };
  if (finals === said.length) return { text: finals === 1 ? 'Once played, this move cannot be taken back.' : 'Once played, these moves cannot be taken back.', tag: false };
  return { text: 'A move marked “Final” cannot be taken back once played.', tag: true };
}

// --- watching, joining ------------------------------------------------------------------------

export async function watchForm(main) {
  await games();
  const idInput = h('input', { type: 'text', name: 'match', autocomplete: 'off', spellcheck: 'false', required: true });
  const tokenInput = h('input', { type: 'password', name: 'token', autocomplete: 'off', spellcheck: 'false' });
  const form = h('form', {
    'aria-labelledby': 'watch-title',
    onsubmit(event) {
      event.preventDefault();
      clearFieldErrors(form);
      const id = idInput.value.trim();
      if (!UUID.test(id)) {
        showFieldError(idInput, 'A match number looks like 0f8c6b1e-…: 36 letters, digits and dashes. Copy it from the link you were sent.');
        return;
      }
      const token = tokenInput.value.trim();
      if (token) rememberSeat(id, token);
      location.hash = `match=${id}`;
    },
  },
  h('h2', { id: 'watch-title' }, 'Open a hosted match'),
  field('Match id', idInput),
  field('Seat token (optional)', tokenInput, 'Paste the token you were given to play your seat; leave empty to watch.'),
  h('button', { type: 'submit' }, 'Open'));

  const codeInput = h('input', { type: 'text', name: 'invite', autocomplete: 'off', spellcheck: 'false', autocapitalize: 'characters' });
  const joinForm = h('form', {
    class: 'card',
    'aria-labelledby': 'join-title',
    async onsubmit(event) {
      event.preventDefault();
      clearFieldErrors(joinForm);
      try {
        await redeemInvite(codeInput.value.trim());
      } catch (error) {
        showFieldError(codeInput, refusalWords(error));
      }
    },
  },
  h('h2', { id: 'join-title' }, 'Join with an invite code'),
  field('Invite code', codeInput, 'The code the match’s host gave you for your seat (10 letters and digits). Scanning the host’s QR code does this for you.'),
  h('button', { type: 'submit' }, 'Take my seat'));
  const hosted = myHostedMatches().slice(0, 10);
  const here = household();
  const follows = here && here.role === 'reader';
  replace(main, h('h1', { tabindex: -1 }, 'Watch a match'),
    h('section', { class: 'card host-call', 'aria-labelledby': 'host-call-title' },
      h('h2', { id: 'host-call-title' }, 'Play a match from your phones'),
      h('p', {}, 'Choose a game and the players; each player scans a code with their phone and plays from it.'),
      // A phone that only follows its household hosts nothing: it says so instead.
      follows ? h('p', { class: 'follower' }, followerLine(here)) : h('p', {}, h('a', { class: 'button', href: '#host' }, 'Host a match')),
      hosted.length ? [
        h('h3', {}, 'Matches hosted on this phone'),
        h('ul', { class: 'plain' }, hosted.map((match) => h('li', {},
          h('a', { href: `#match=${match.id}` }, `${gameTitle(match.game)}: ${(match.players || []).join(', ')}`),
          match.created ? h('span', { class: 'muted' }, ` ${formatTime(match.created)}`) : null))),
      ] : null),
    joinForm,
    h('details', { class: 'card by-number' }, h('summary', {}, 'Open a match by its number'), form));
}

/** Redeems an invite code for its seat's token, keeps the token on this phone and opens the
 * seat's view: only ever on a tap. A code works once; a refusal (taken, unknown) is thrown. */
export async function redeemInvite(code) {
  const seat = await post(`/v1/invites/${encodeURIComponent(code)}/redeem`);
  rememberSeat(seat.match_id, seat.token);
  location.hash = `match=${seat.match_id}`;
}

/** What an invite link opens: the seat it offers and a button. Opening the link only reads the
 * invite; the seat is taken when the person holding the phone taps, so a link previewer or
 * scanner that runs the page leaves the seat open. */
export async function inviteView(main, code) {
  await games();
  const invite = await get(`/v1/invites/${encodeURIComponent(code)}`);
  const title = `${gameTitle(invite.game)}: ${possessive(invite.name)} seat`;
  if (invite.redeemed) {
    replace(main, h('h1', { tabindex: -1 }, title),
      h('p', { class: 'error', role: 'alert' }, 'A phone already took this seat with this code. Ask the match’s host for a new invite.'),
      h('p', {}, h('a', { href: `#match=${encodeURIComponent(invite.match_id)}` }, 'Watch the match')));
    return;
  }
  const refusal = h('p', { class: 'error', role: 'alert', hidden: true, tabindex: -1 });
  const take = h('button', {
    type: 'button',
    class: 'big',
    async onclick() {
      take.disabled = true;
      refusal.hidden = true;
      try {
        await redeemInvite(code);
      } catch (error) {
        take.disabled = false;
        sayRefusal(error, { game: invite.game }, refusal);
        refusal.focus();
      }
    },
  }, `Take ${possessive(invite.name)} seat`);
  replace(main, h('h1', { tabindex: -1 }, title),
    h('section', { class: 'card', 'aria-labelledby': 'invite-title' },
      h('h2', { id: 'invite-title' }, `You are invited to play as ${invite.name}`),
      h('p', {}, 'This phone will play for this seat. The invite works once: tap only on the phone that will play.'),
      refusal,
      take),
    h('p', {}, h('a', { href: `#match=${encodeURIComponent(invite.match_id)}` }, 'Only watch the match')));
}

// --- chance reports: what the table dealt, drew or rolled, entered by tapping ------------------

const LUCK_PLUS_CARDS = [
  ...['GO', 'STOP', 'TR'].flatMap((kind) => Array.from({ length: 12 }, (_, index) => `${kind}-${index + 1}`)),
  'TP-1', 'TP-2', 'TP-3', 'TP-4', 'DBL', 'LP',
];
const CARD_SETS = {
  'lucky-jack': ['lemon', 'cherry', 'grape', 'clover', 'bell', 'seven', 'jack'],
  'plus-minus': ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'],
  'luck-plus': LUCK_PLUS_CARDS,
  'lucky-luau': ['yellow', 'red', 'blue', 'pink', 'purple', 'orange', 'green', 'rainbow', 'ti', 'mega', 'kukui'],
  'lucky-dice': ['clover', 'pig', 'cat', 'penny', 'horseshoe', 'hamsa'],
};

/** A place in an outcome to fill by tapping: `count` things (or `min`..`max`), cards or dice. */
const slot = (count, extra = {}) => ({ slot: true, min: count, max: count, ...extra });
const perSeat = (players, count) => Array.from({ length: players }, (_, seat) => slot(count, { seat }));

/** The outcome the service waits for, with slots where the table's cards and dice go. */
function chanceTemplate(match) {
  const chance = (match.view && match.view.chance) || {};
  const players = match.seats.length;
  const options = match.options || {};
  const count = chance.count ?? 1;
  switch (`${match.game} ${chance.kind}`) {
    case 'lucky-jack deal': return { kind: 'deal', hands: perSeat(players, 7), flip: slot(1, { single: true }) };
    case 'lucky-jack draw': return { kind: 'draw', cards: slot(count, { ordered: true }) };
    case 'lucky-jack flip': return { kind: 'flip', card: slot(1, { single: true }) };
    case 'plus-minus deal': {
      const chosen = Boolean(options.face_up_chosen_by_player);
      return { kind: 'deal', hands: perSeat(players, chosen ? 4 : 2), face_up: perSeat(players, chosen ? 0 : 2) };
    }
    case 'plus-minus draw': return { kind: 'draw', cards: slot(count, { ordered: true }) };
    case 'luck-plus deal': return { kind: 'deal', hands: perSeat(players, 8), flips: { slot: true, min: 1, max: 12, ordered: true } };
    case 'luck-plus roll': return { kind: 'roll', dice: slot(2, { die: true }) };
    case 'luck-plus draw': return { kind: 'draw', card: slot(1, { single: true }) };
    case 'lucky-luau draw': return { kind: 'draw', card: slot(1, { single: true }) };
    case 'lucky-dice lucky_symbol': return { kind: 'lucky_symbol', symbol: slot(1, { single: true }) };
    case 'lucky-dice roll': return { kind: 'roll', faces: slot(chance.dice ?? count) };
    case 'lucky-dice coasters': return { kind: 'coasters', coasters: slot((chance.seats || []).length || players, { coaster: true, ordered: true }) };
    default: return null;
  }
}

/** The same slots, read off an outcome already reported (to correct it), with its values. */
function templateOf(outcome) {
  const template = {};
  const values = {};
  // Hands first, then the rest, as the cards come off the pile.
  const ordered = Object.entries(outcome).sort(([, a], [, b]) => Number(Array.isArray(b) && b.every(Array.isArray)) - Number(Array.isArray(a) && a.every(Array.isArray)));
  for (const [key, value] of ordered) {
    if (key === 'kind') { template.kind = value; continue; }
    if (Array.isArray(value) && value.every(Array.isArray)) {
      template[key] = value.map((hand, seat) => slot(hand.length, { seat }));
      value.forEach((hand, seat) => { values[`${key}.${seat}`] = hand; });
    } else if (Array.isArray(value)) {
      const die = value.every((item) => typeof item === 'number');
      const coaster = value.every((item) => item && typeof item === 'object');
      template[key] = key === 'flips' ? { slot: true, min: 1, max: 12, ordered: true } : slot(value.length, { ordered: true, die, coaster });
      values[key] = value;
    } else {
      template[key] = slot(1, { single: true });
      values[key] = [value];
    }
  }
  return { template, values };
}

// Hands entered at the table: in a deal of hands (Lucky Jack, Luck Plus, Plus & Minus), each
// seat taps in its own hand on its own phone (`PUT /v1/matches/{id}/hands/{seat}`), and whoever
// reports the deal enters only the table's public cards: the deal then goes without `hands`,
// and the service puts in each seat's. Nobody's phone, the host's included, shows another's.

/** The seats' hand slots of the deal awaited, or null when it is no deal of hands. */
function handSlots(template) {
  return template && template.kind === 'deal' && Array.isArray(template.hands) ? template.hands : null;
}

/** The deal's public part, entered once: the template without its hands. */
function publicTemplate(template) {
  return Object.fromEntries(Object.entries(template).filter(([key]) => key !== 'hands'));
}

/** Whether a template leaves anything to tap (Plus & Minus, face-up cards chosen later: none). */
function hasSlots(template) {
  return Object.entries(template).some(([key, value]) => key !== 'kind' && (Array.isArray(value) ? value : [value]).some((place) => place.max > 0));
}

const PUBLIC_WORDS = { 'lucky-jack': 'the card turned up', 'luck-plus': 'the cards turned up', 'plus-minus': 'the face-up cards' };
const PUBLIC_TITLES = { 'lucky-jack': 'Enter the card turned up', 'luck-plus': 'Enter the cards turned up', 'plus-minus': 'Enter the face-up cards' };

/** "Hands entered: Ann ✓, Ben waiting, Cleo waiting." (`entered`: seats; null while unknown). */
export function handsEnteredText(names, entered) {
  if (!entered) return 'Hands entered: checking…';
  const isIn = new Set(entered);
  const each = names.map((name, seat) => (isIn.has(seat) ? `${name} ✓` : `${name} waiting`));
  const all = names.every((_, seat) => isIn.has(seat));
  return `Hands entered: ${each.join(', ')}.${all ? ' Every hand is in.' : ''}`;
}

const SLOT_WORDS = {
  hands: 'cards', face_up: 'face-up cards', flip: 'the card turned up', flips: 'the cards turned up, in order',
  cards: 'the cards drawn, in order', card: 'the card', dice: 'the two dice', faces: 'the dice',
  symbol: 'the lucky symbol rolled', coasters: 'the coasters drawn, in seat order',
};

const SINGLE_WORDS = { cards: 'the card drawn', flips: 'the card turned up', faces: 'the die', coasters: 'the coaster drawn' };

const CHANCE_TITLES = {
  deal: 'Enter the deal', draw: 'Enter the card drawn', flip: 'Enter the card turned up', roll: 'Enter the roll',
  lucky_symbol: 'Enter the lucky symbol', coasters: 'Enter the coasters drawn',
};

/** A tap picker of the same shape as `cardPicker` in cards.js, for dice (and for cards when
 * cards.js has no picker): offered things as buttons, chosen ones listed, each removable. */
function tapPicker({ offered, label, max, face, name }) {
  let chosen = [];
  let onChange = () => {};
  const chosenList = h('ol', { class: 'picked', 'aria-label': `${label}: chosen` });
  function render() {
    replace(chosenList, chosen.map((value, index) => h('li', {}, h('button', {
      type: 'button',
      class: 'picked-item',
      'aria-label': `Remove ${name(value)}`,
      onclick() { chosen.splice(index, 1); render(); onChange(); },
    }, face(value)))));
  }
  const offer = h('div', { class: 'pick-offer', role: 'group', 'aria-label': label }, offered.map((value) => h('button', {
    type: 'button',
    class: 'pick',
    'aria-label': name(value),
    onclick() {
      if (chosen.length >= max) { announce(`That is all ${max}. Tap a chosen one to remove it.`); return; }
      chosen.push(value);
      render();
      onChange();
    },
  }, face(value))));
  return {
    element: h('div', { class: 'tap-picker' }, offer, chosenList),
    value: () => [...chosen],
    set(values) { chosen = [...values].slice(0, max); render(); },
    clear() { chosen = []; render(); },
    listen(callback) { onChange = callback; },
  };
}

function pickerFor(game, part) {
  if (part.die) {
    return tapPicker({ offered: [1, 2, 3, 4, 5, 6], label: part.label, max: part.max, face: (value) => cards.dieFace(value), name: (value) => `Die showing ${value}` });
  }
  const offered = part.offered;
  if (typeof cards.cardPicker === 'function') {
    return cards.cardPicker({ game, cards: offered, label: part.label, ordered: Boolean(part.ordered), max: part.max, onChange: () => part.changed() });
  }
  return tapPicker({ offered, label: part.label, max: part.max, face: (card) => cards.cardFace(game, card, { small: true }), name: (card) => cards.cardLabel(game, card) });
}

/** A form to report (or correct) a chance outcome by tapping. `template` has slots; `values`
 * (optional) fills them; `send(outcome)` posts it and throws a refusal to show. `titleId` names
 * the form (two on one phone need two); `yours` says "Your cards" for a seat's own hand; `hint`
 * replaces the line above the cards. */
function chanceForm({ match, names, template, values = {}, title, submitText, send, onCancel, titleId = 'chance-title', yours = false, hint = null }) {
  const game = match.game;
  const offeredCards = game === 'lucky-dice' && template.kind === 'coasters'
    ? (match.options && match.options.coaster_set) || []
    : CARD_SETS[game] || [];
  const parts = [];
  const formError = h('p', { class: 'error', role: 'alert', hidden: true, tabindex: -1 });
  const fieldsets = [];
  for (const [key, value] of Object.entries(template)) {
    if (key === 'kind') continue;
    const slots = Array.isArray(value) ? value : [value];
    for (const place of slots) {
      if (place.max === 0) continue;
      const what = place.max === 1 && SINGLE_WORDS[key] ? SINGLE_WORDS[key] : SLOT_WORDS[key] || words(key);
      const owner = yours ? 'Your' : possessive(names[place.seat]);
      const whose = place.seat !== undefined ? `${owner} ${what}` : what.replace(/^./, (first) => first.toUpperCase());
      const howMany = place.min === place.max ? ` (${place.max})` : '';
      const part = { key, seat: place.seat, single: place.single, min: place.min, max: place.max, ordered: place.ordered, die: place.die, label: `${whose}${howMany}`, offered: offeredCards, changed: () => {} };
      const picker = pickerFor(game, part);
      const count = h('p', { class: 'pick-count', 'aria-live': 'polite' });
      const error = h('p', { class: 'error', hidden: true, tabindex: -1 });
      part.picker = picker;
      part.error = error;
      part.changed = () => {
        const got = picker.value().length;
        count.textContent = part.min === part.max ? `${got} of ${part.max} tapped` : `${got} tapped`;
      };
      if (picker.listen) picker.listen(part.changed);
      const stored = values[place.seat !== undefined ? `${key}.${place.seat}` : key];
      if (stored) picker.set(stored);
      part.changed();
      parts.push(part);
      fieldsets.push(h('fieldset', { class: 'pick-part' }, h('legend', {}, part.label), picker.element, count, error));
    }
  }
  const submit = h('button', { type: 'submit' }, submitText);
  const form = h('form', {
    class: 'card chance-form',
    'aria-labelledby': titleId,
    async onsubmit(event) {
      event.preventDefault();
      clearFieldErrors(form);
      for (const part of parts) {
        const got = part.picker.value().length;
        if (got < part.min || got > part.max) {
          const wanted = part.min === part.max ? `${part.max}` : `from ${part.min} to ${part.max}`;
          part.error.textContent = `Tap ${wanted} for ${part.label.replace(/ \(\d+\)$/, '').replace(/^Your /, 'your ')}: ${got} so far.`;
          part.error.hidden = false;
          part.error.focus();
          announce(part.error.textContent);
          return;
        }
      }
      const outcome = { kind: template.kind };
      for (const [key, value] of Object.entries(template)) {
        if (key === 'kind') continue;
        if (Array.isArray(value)) {
          outcome[key] = value.map((place) => {
            const part = parts.find((candidate) => candidate.key === key && candidate.seat === place.seat);
            return part ? part.picker.value() : [];
          });
        } else {
          const part = parts.find((candidate) => candidate.key === key);
          outcome[key] = part.single ? part.picker.value()[0] : part.picker.value();
        }
      }
      submit.disabled = true;
      try {
        await send(outcome);
      } catch (error) {
        submit.disabled = false;
        sayRefusal(error, { names, game }, formError);
        formError.focus();
      }
    },
  },
  h('h2', { id: titleId }, title),
  h('p', { class: 'hint' }, hint || (parts.length === 1 && parts[0].max === 1
    ? 'Tap what came up. Tap it again below to take it out.'
    : 'Tap the cards in the order they came. Tap a chosen one again to take it out.')),
  fieldsets, formError,
  h('div', { class: 'buttons' }, submit, onCancel ? h('button', { type: 'button', class: 'secondary', onclick: onCancel }, 'Cancel') : null));
  return form;
}

// --- was the shuffle fair? ---------------------------------------------------------------------
//
// A server-dealt match publishes, when it begins, the fingerprint of its secret seed: the SHA-256
// of the seed's 32 bytes, in hex (`seed_sha256`, src/seed.rs). The seed itself, 64 hex digits,
// is shown once the match is over. Every deal, draw and roll comes from it: the chance event at
// ply p from the ChaCha20 stream p of the seed, the opening deal from stream 1, as does
// `POST /v1/games/{game}/states` given the seed (src/referee.rs, `setup` and
// `resolve_from_seed`). So the page checks, itself, that the seed is the one fingerprinted before
// the first card; then asks the service to deal the opening again from the seed, and compares
// that table with the one the match's log makes from the cards it says were dealt.

const SHA256_K = Uint32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** SHA-256 of `bytes` in plain JavaScript (FIPS 180-4), for a page where the browser's own is
 * missing: `crypto.subtle` exists only on secure pages, and http://192.168.1.20:8080 is not one. */
export function sha256Plain(bytes) {
  const length = bytes.length;
  const blocks = Math.ceil((length + 9) / 64);
  const data = new Uint8Array(blocks * 64);
  data.set(bytes);
  data[length] = 0x80;
  const view = new DataView(data.buffer);
  view.setUint32(data.length - 8, Math.floor(length / 0x20000000));
  view.setUint32(data.length - 4, (length * 8) >>> 0);
  const hash = Uint32Array.from([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rotate = (x, n) => (x >>> n) | (x << (32 - n));
  for (let block = 0; block < blocks; block += 1) {
    for (let t = 0; t < 16; t += 1) w[t] = view.getUint32(block * 64 + t * 4);
    for (let t = 16; t < 64; t += 1) {
      const s0 = rotate(w[t - 15], 7) ^ rotate(w[t - 15], 18) ^ (w[t - 15] >>> 3);
      const s1 = rotate(w[t - 2], 17) ^ rotate(w[t - 2], 19) ^ (w[t - 2] >>> 10);
      w[t] = (w[t - 16] + s0 + w[t - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, k] = hash;
    for (let t = 0; t < 64; t += 1) {
      const t1 = (k + (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) + ((e & f) ^ (~e & g)) + SHA256_K[t] + w[t]) >>> 0;
      const t2 = ((rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      k = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    [a, b, c, d, e, f, g, k].forEach((value, index) => { hash[index] = (hash[index] + value) >>> 0; });
  }
  return [...hash].map((word) => word.toString(16).padStart(8, '0')).join('');
}

/** 64 hex digits as their 32 bytes; null for anything else. */
export function seedBytes(seed) {
  const text = String(seed || '');
  if (!/^[0-9a-f]{64}$/i.test(text)) return null;
  return Uint8Array.from(text.match(/../g), (pair) => parseInt(pair, 16));
}

/** The fingerprint of a revealed seed, as the service publishes it: hex SHA-256 of its 32 bytes
 * (not of its 64 letters). The browser's SHA-256 where the page may use it, else `sha256Plain`. */
export async function seedFingerprint(seed) {
  const bytes = seedBytes(seed);
  if (!bytes) return null;
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (subtle) {
    try {
      const digest = new Uint8Array(await subtle.digest('SHA-256', bytes));
      return [...digest].map((byte) => byte.toString(16).padStart(2, '0')).join('');
    } catch { /* fall through to the page's own */ }
  }
  return sha256Plain(bytes);
}

/** The chance outcomes the match began with: the log's first entries, before any seat acted. */
export function openingOutcomes(entries) {
  const opening = [];
  for (const entry of entries) {
    if (entry.seat !== null && entry.seat !== undefined) break;
    if (entry.move || entry.takes_back || entry.corrects) break;
    if (!entry.chance) return null;
    opening.push(entry.chance);
  }
  return opening;
}

/** Two JSON values equal whatever the order of their objects' keys. */
export function sameJson(a, b) {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
  }
  return a === b;
}

/**
 * Checks a finished server-dealt match: `{fingerprint: 'same' | 'different', deal: 'same' |
 * 'different' | 'none' | 'unknown', reason?}`. `entries` is its whole log (every card shown once
 * the match is over); `ask(path, body)` posts to the service.
 */
export async function checkShuffle(match, entries, ask) {
  const fingerprint = await seedFingerprint(match.seed);
  const result = { fingerprint: fingerprint && fingerprint === String(match.seed_sha256 || '').toLowerCase() ? 'same' : 'different', deal: 'unknown' };
  if (result.fingerprint !== 'same') return result;
  const opening = openingOutcomes(entries);
  if (opening === null) { result.reason = 'hidden'; return result; }
  if (!opening.length) { result.deal = 'none'; return result; }
  const game = encodeURIComponent(match.game);
  const setup = { players: match.seats.length, options: match.options };
  try {
    // The service deals from the seed, as it did when the match began...
    const dealt = await ask(`/v1/games/${game}/states`, { ...setup, seed: match.seed });
    // ...and the same table, from the cards the log says were dealt.
    let told = await ask(`/v1/games/${game}/states`, setup);
    for (const outcome of opening) told = await ask(`/v1/games/${game}/chance`, { state: told.state, outcome });
    result.deal = sameJson(dealt.state, told.state) ? 'same' : 'different';
  } catch (error) {
    result.reason = refusalWords(error, { game: match.game });
  }
  return result;
}

// --- the table ----------------------------------------------------------------------------------

const ROUND_EVENT = /round|jackpot|won|winner|game_over|finished|ended/i;

function safely(call, fallback) {
  try {
    const value = call();
    return value === undefined || value === null ? fallback : value;
  } catch {
    return fallback;
  }
}

/** What the banner says of `fresh` entries: each big moment (a round's end, a jackpot, the game's
 * end) as the game's table announces it, or, for another round event (a round begins), the
 * entry's sentence; the sentences one after the other, each with its full stop. Empty when
 * nothing big happened. */
export function newsText(table, fresh, ctx) {
  const said = [];
  for (const entry of fresh) {
    const big = safely(() => table.announcement(entry, ctx), null);
    if (big) said.push(String(big));
    else if ((entry.events || []).some((event) => ROUND_EVENT.test(String(event.type || '')))) said.push(entryText(table, entry, ctx));
  }
  return sentences(said);
}

/** The log entry in words (the game's table says it), with who it was: a sentence with its full
 * stop, so that entries said one after the other never run together. */
export function entryText(table, entry, ctx) {
  const said = safely(() => table.describeEntry(entry, ctx), '');
  if (said) return sentences([String(said)]);
  if (entry.takes_back) return `${ctx.names[entry.seat] ?? 'A player'} took back a move.`;
  return entry.seat === null || entry.seat === undefined ? 'The table dealt or drew.' : `${ctx.names[entry.seat]} played.`;
}

export function matchView(main, id) {
  const token = seatToken(id);
  const owner = ownerToken(id);
  const heading = h('h1', { tabindex: -1 }, 'Match');
  // Not a live region itself: changes are said once, through announce(), with any news.
  const turn = h('p', { class: 'turn' });
  const banner = h('p', { class: 'banner', hidden: true });
  const loadError = h('p', { class: 'error', role: 'alert', hidden: true });
  const tableSlot = h('section', { class: 'card table-view', 'aria-labelledby': 'table-title' });
  const movesSlot = h('div');
  const chanceSlot = h('div');
  const standingsSlot = h('div');
  const logList = h('ol', { class: 'log' });
  const logToggle = h('button', { type: 'button', class: 'link', 'aria-expanded': 'false', hidden: true });
  const logSection = h('section', { class: 'card', 'aria-labelledby': 'log-title' }, h('h2', { id: 'log-title' }, 'What happened'), logList, logToggle);
  const ownerSlot = h('div');
  const endSlot = h('div');
  const eveningSlot = h('div');
  let match = null;
  let names = [];
  let entries = [];
  let lastPly = null;
  let lastTurn = '';
  let wholeLog = false;
  let correcting = false;
  let reporting = false;
  let ownerNotice = null;
  let showing = 0;
  let shownKey = null;
  let chanceCache = null;
  let reportedHere = null;
  // Hands entered on the seats' own phones, for the deal awaited: the service's last answer
  // (`{version, entered, mine}`), read again every 2 s while some hand is missing.
  let hands = null;
  let handsError = null;
  let handsTimer = 0;
  let handsCall = 0;
  let handsLeft = false;
  let changingHand = false;
  // The evening this match belongs to (`/v1/matches/{id}/evening`), read once the match is over.
  let evening = null;
  let eveningCall = 0;
  let eveningLeft = false;
  const handsLine = h('p', { class: 'hands-entered' });
  const myHandBox = h('div', { class: 'my-hand' });

  const leave = token ? h('p', {}, h('button', {
    type: 'button',
    class: 'link',
    async onclick() {
      const sure = await confirmDialog({
        text: 'This phone will stop playing for its seat. To play again, it needs a new invite from the host.',
        yes: 'Yes, only watch', no: 'No, keep my seat',
      });
      if (!sure) return;
      forgetSeat(id);
      window.location.reload();
    },
  }, 'Stop playing from this phone and only watch')) : null;
  replace(main, heading, loadError, turn, banner, tableSlot, movesSlot, chanceSlot, standingsSlot, eveningSlot, logSection, ownerSlot, endSlot, leave);

  logToggle.addEventListener('click', () => {
    wholeLog = !wholeLog;
    renderLog();
  });

  const mySeat = () => (match && match.viewer && typeof match.viewer === 'object' ? match.viewer.seat : null);
  const ctx = () => ({ names, seat: mySeat(), game: match.game, randomness: match.randomness, options: match.options || (match.view && match.view.options) || {} });
  const table = () => tableFor(match.game);

  function chanceWaitText() {
    const chance = (match.view && match.view.chance) || {};
    const who = Number.isInteger(chance.seat) ? names[chance.seat] : null;
    const reporter = '';
    switch (chance.kind) {
      case 'deal': return `Waiting for the cards to be dealt.${reporter}`;
      case 'draw': return `Waiting for the card${(chance.count ?? 1) > 1 ? 's' : ''} ${who || 'the player'} draws.${reporter}`;
      case 'roll': return `Waiting for ${who ? possessive(who) : 'the'} roll.${reporter}`;
      case 'flip': return `Waiting for the card turned up.${reporter}`;
      case 'coasters': return `Waiting for the coasters to be drawn.${reporter}`;
      case 'lucky_symbol': return `Waiting for the big die’s lucky symbol.${reporter}`;
      default: return `Waiting for the cards or dice.${reporter}`;
    }
  }

  function turnText() {
    if (match.status === 'finished') {
      const winners = match.standings.winners.map((seat) => names[seat]);
      return `The match is over: ${nameList(winners)} ${winners.length > 1 ? 'share the win' : 'wins'}.`;
    }
    if (match.status === 'abandoned') return 'This match was stopped before its end.';
    if (match.chance_pending) {
      const chance = (match.view && match.view.chance) || {};
      const me = mySeat();
      if (me !== null && chance.seat === me && mayReport()) {
        return chance.kind === 'roll' ? `Your roll, ${names[me]}: roll, then tap in what came up.` : `Your draw, ${names[me]}: draw, then tap in what you drew.`;
      }
      // A deal whose hands each seat taps in on its own phone: this seat's is still to come.
      if (me !== null && token && handDeal() && !(hands && hands.mine)) return `Your hand, ${names[me]}: once the cards are dealt, tap yours in below.`;
      return chanceWaitText();
    }
    const acting = match.to_act || [];
    const me = mySeat();
    if (me !== null && acting.includes(me)) {
      const others = acting.filter((seat) => seat !== me).map((seat) => names[seat]);
      return others.length ? `Your turn, ${names[me]}, with ${nameList(others)}.` : `Your turn, ${names[me]}.`;
    }
    if (acting.length === 1) return `${possessive(names[acting[0]])} turn.`;
    if (acting.length > 1) return `${nameList(acting.map((seat) => names[seat]))} to play.`;
    return 'Nobody to play right now.';
  }

  function renderStandings() {
    const acting = match.status === 'in_progress' ? (match.to_act || []) : [];
    replace(standingsSlot, h('section', { class: 'card', 'aria-labelledby': 'standings-title' },
      h('h2', { id: 'standings-title' }, match.status === 'finished' ? 'Final standings' : 'Standings'),
      // Three columns fit a phone, but not at 200 % text: then the table scrolls in its box.
      h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'Standings table (scrolls sideways)' }, h('table', { class: 'standings' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Place'), h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col', class: 'number' }, 'Points'))),
        h('tbody', {}, match.seats.map((seat) => h('tr', { class: match.standings.winners.includes(seat.seat) ? 'winner' : null },
          h('td', {}, match.standings.ranks[seat.seat]),
          h('th', { scope: 'row' }, seat.name,
            seat.seat === mySeat() ? h('span', { class: 'badge' }, ' (you)') : null,
            acting.includes(seat.seat) ? h('span', { class: 'badge' }, ' playing now') : null),
          h('td', { class: 'number' }, formatNumber(match.standings.totals[seat.seat])))))))));
  }

  function renderTable() {
    const me = mySeat();
    const own = me !== null ? `What you see, ${names[me]}` : 'The table';
    const picture = safely(() => table().renderTable(match.view || {}, ctx()), null);
    replace(tableSlot, h('h2', { id: 'table-title' }, own), picture instanceof Node ? picture : h('p', {}, String(picture ?? '')));
  }

  // The last move that stands, if it is this seat's and nothing happened after it: the one a
  // take-back would undo. (The service decides; this only chooses when to offer the button.)
  function myLastMove() {
    const me = mySeat();
    const last = entries[entries.length - 1];
    if (me === null || !last || match.status !== 'in_progress') return null;
    if (last.seat !== me || !last.move || last.takes_back) return null;
    return last;
  }

  async function play(move, described, button, error) {
    clearFieldErrors(movesSlot);
    if (endsGame(described)) {
      const sure = await confirmDialog({
        title: 'End the game?',
        text: `${described.title}${described.consequence ? `: ${described.consequence}` : ''}. The result is final: it cannot be taken back, and it counts in everyone’s ratings.`,
        yes: `Yes, ${described.title.replace(/^./, (first) => first.toLowerCase())}`,
        no: 'No, go back',
      });
      if (!sure) return;
    }
    button.disabled = true;
    try {
      await post(`/v1/matches/${id}/moves`, { move, expected_version: match.version }, { token });
      announce(`You played: ${described.title}.`);
      await refresh();
    } catch (failure) {
      button.disabled = false;
      // The table may have moved on under this phone: show it as it is now, then say why.
      await refresh();
      sayRefusal(failure, ctx(), movesSlot.querySelector('#moves-error') || error);
    }
  }

  function renderMoves() {
    if (!token) { replace(movesSlot); return; }
    const me = mySeat();
    const legal = (match.view && match.view.legal_moves) || [];
    const error = h('p', { class: 'error', id: 'moves-error', role: 'alert', hidden: true });
    const group = h('div', { class: 'move-cards', role: 'group', 'aria-labelledby': 'moves-title', id: 'moves' });
    const said = legal.map((move) => {
      const described = safely(() => table().describeMove(move, match.view, ctx()), null) || {};
      return {
        title: String(described.title || words(move.type || 'move')),
        consequence: described.consequence ? String(described.consequence) : '',
        irreversible: Boolean(described.irreversible),
        because: described.because ? String(described.because).replace(/\.$/, '') : '',
      };
    });
    const finals = finalNote(said);
    legal.forEach((move, index) => {
      const { title, consequence, irreversible } = said[index];
      const button = h('button', {
        type: 'button',
        class: `move-card${irreversible ? ' final' : ''}`,
        'data-move-type': move.type,
        onclick: () => play(move, said[index], button, error),
      },
      h('span', { class: 'move-title' }, title),
      consequence ? h('span', { class: 'move-consequence' }, consequence) : null,
      irreversible && finals.tag ? h('span', { class: 'move-final' }, 'Final') : null);
      group.append(button);
    });
    const last = myLastMove();
    const takeBackError = h('p', { class: 'error', role: 'alert', hidden: true });
    const takeBack = last ? h('button', {
      type: 'button',
      class: 'secondary',
      async onclick() {
        takeBack.disabled = true;
        try {
          await post(`/v1/matches/${id}/take-backs`, { expected_version: match.version }, { token });
          announce('Your move is taken back. Choose again.');
          await refresh();
        } catch (failure) {
          takeBack.disabled = false;
          await refresh();
          sayRefusal(failure, ctx(), movesSlot.querySelector('.take-back .error') || movesSlot.querySelector('#moves-error') || takeBackError);
        }
      },
    }, 'Take back my move') : null;
    const nothing = match.status === 'finished' ? 'The match is over.'
      : match.status === 'abandoned' ? 'The match was stopped.'
        : match.chance_pending ? 'Wait for the cards or dice.' : 'Nothing to do right now: wait for your turn.';
    replace(movesSlot, h('section', { class: 'card moves', 'aria-labelledby': 'moves-title' },
      h('h2', { id: 'moves-title' }, `Your moves${me !== null ? `, ${names[me]}` : ''}`),
      legal.length && finals.text ? h('p', { class: 'hint moves-note' }, finals.text) : null,
      legal.length ? group : h('p', { class: 'muted' }, nothing),
      error,
      takeBack ? h('div', { class: 'take-back' }, takeBack, takeBackError) : null));
  }

  function mayReport() {
    if (match.randomness !== 'table' || match.status !== 'in_progress') return false;
    if (owner) return true;
    const chance = (match.view && match.view.chance) || {};
    if (!token) return false;
    if (match.chance_reporters === 'any_seat') return true;
    return match.chance_reporters === 'owner_and_acting_seat' && chance.seat === mySeat() && chance.seat !== null && chance.seat !== undefined;
  }

  // The last entry, when it is a chance outcome this phone can see and nobody has moved since.
  // The last entry, when it is a chance outcome nobody has moved since, and this phone can see
  // it (the host reads every outcome; a seat that reported one remembers what it reported).
  function correctable() {
    if (match.randomness !== 'table' || match.status !== 'in_progress') return null;
    const last = entries[entries.length - 1];
    if (!last || last.move || last.takes_back) return null;
    if (last.chance) return last;
    if (reportedHere && reportedHere.ply === last.ply) return { ...last, chance: reportedHere.outcome };
    return null;
  }

  /** Remembers what this phone just reported (the reply's chance entry), to correct it. */
  function remember(reply, outcome) {
    const entry = ((reply && reply.entries) || []).find((candidate) => candidate.reported_by || candidate.chance || candidate.corrects);
    reportedHere = entry ? { ply: entry.ply, outcome } : null;
  }

  const mendToken = () => owner || token;

  // --- hands entered on each seat's own phone ----------------------------------------------

  /** The hand slots of the deal this phone may take part in (a token, table randomness), or null. */
  function handDeal() {
    if (!match || match.randomness !== 'table' || match.status !== 'in_progress' || !match.chance_pending) return null;
    if (!token && !owner) return null;
    return handSlots(chanceTemplate(match));
  }

  const everyHandIn = () => Boolean(hands && match && match.seats.every((seat) => hands.entered.includes(seat.seat)));

  /** Reads who has entered their hand (and this seat's own cards); again in 2 s while some are
   * missing. One reading at a time: a newer call makes an older one's answer moot. */
  async function loadHands() {
    const call = ++handsCall;
    clearTimeout(handsTimer);
    if (handsLeft || !handDeal()) return;
    const version = match.version;
    let answer = null;
    try {
      answer = await enteredHands(id, { token: token || owner });
      handsError = null;
    } catch (error) {
      handsError = error;
    }
    if (call !== handsCall || handsLeft || !match || match.version !== version || !handDeal()) return;
    if (answer && answer.version === version) takeHands(answer);
    else renderHandsLine();
    if (!everyHandIn()) handsTimer = setTimeout(loadHands, 2000);
  }

  /** Shows an answer of the hands endpoint: who is in (said aloud when it changes), and this
   * seat's own part when its cards changed. */
  function takeHands(answer) {
    const before = hands;
    hands = answer;
    if (before && before.version === answer.version) {
      const fresh = answer.entered.filter((seat) => !before.entered.includes(seat) && seat !== mySeat());
      if (fresh.length) announce(`${nameList(fresh.map((seat) => names[seat]))} entered ${fresh.length > 1 ? 'their hands' : 'their hand'}.${everyHandIn() ? ' Every hand is in.' : ''}`);
    }
    renderHandsLine();
    if (!before || JSON.stringify(before.mine) !== JSON.stringify(answer.mine)) {
      renderMyHand();
      // "Your hand, …: tap yours in" gives way to the wait once it is in.
      const text = turnText();
      if (turn.textContent !== text) {
        turn.textContent = text;
        lastTurn = text;
      }
    }
  }

  function renderHandsLine() {
    handsLine.textContent = !hands && handsError ? refusalWords(handsError, ctx()) : handsEnteredText(names, hands && hands.entered);
  }

  /** This seat's own hand: a picker for its cards and "This is my hand", or, once in, the cards
   * it entered and "Change it". Never another seat's. */
  function renderMyHand() {
    const deal = handDeal();
    const me = mySeat();
    if (!deal || me === null || !token || !deal[me]) { replace(myHandBox); return; }
    const reporter = mayReport();
    const mine = hands && hands.mine;
    if (!hands && !handsError) {
      replace(myHandBox, h('section', { class: 'card', 'aria-labelledby': 'my-hand-title' },
        h('h2', { id: 'my-hand-title' }, 'Your hand'), h('p', { class: 'muted' }, 'Looking up your hand…')));
      return;
    }
    if (mine && !changingHand) {
      replace(myHandBox, h('section', { class: 'card hand-in', 'aria-labelledby': 'my-hand-title' },
        h('h2', { id: 'my-hand-title' }, 'Your hand is in'),
        h('ul', { class: 'hand-cards', 'aria-label': `Your hand: ${mine.length} ${mine.length === 1 ? 'card' : 'cards'}` },
          mine.map((card) => h('li', {}, cards.cardFace(match.game, card, { small: true })))),
        h('p', { class: 'hint' }, 'Only this phone shows it. It is yours once the deal is reported.'),
        reporter ? null : handsLine,
        h('button', { type: 'button', class: 'secondary', onclick: () => { changingHand = true; renderMyHand(); focusIn(myHandBox); } }, 'Change it')));
      return;
    }
    const form = chanceForm({
      match, names,
      template: { kind: 'deal', hands: [deal[me]] },
      values: mine ? { [`hands.${me}`]: mine } : {},
      title: 'Your hand',
      titleId: 'my-hand-title',
      yours: true,
      hint: 'Tap each card in your hand, in any order. Only this phone sees them; tap a chosen one again to take it out.',
      submitText: 'This is my hand',
      onCancel: mine ? () => { changingHand = false; renderMyHand(); focusIn(myHandBox); } : null,
      async send(outcome) {
        const answer = await enterHand(id, me, outcome.hands[0], { token });
        changingHand = false;
        hands = null;
        takeHands(answer);
        announce('Your hand is in.');
        focusIn(myHandBox);
        if (!everyHandIn()) loadHands();
      },
    });
    form.classList.add('my-hand-form');
    if (!reporter) form.insertBefore(handsLine, form.querySelector('.buttons'));
    replace(myHandBox, form);
  }

  function renderChance() {
    // A form half tapped stays as it is while nothing changes at the table.
    const key = `${match.version} ${reporting} ${correcting}`;
    if (chanceCache && chanceCache.key === key && (reporting || correcting || chanceCache.keep)) return;
    chanceCache = { key };
    const parts = [];
    const deal = handDeal();
    if (!deal || (hands && hands.version !== match.version)) {
      hands = null;
      changingHand = false;
    }
    if (deal && mySeat() !== null && token) {
      // This seat's own hand, above the rest: kept while the table does not change.
      chanceCache.keep = true;
      parts.push(myHandBox);
      renderMyHand();
    }
    if (match.chance_pending && mayReport()) {
      const template = chanceTemplate(match);
      if (template && !correcting && deal && !reporting) {
        // The deal's public cards only: each seat's hand comes from its own phone.
        const open = publicTemplate(template);
        const some = hasSlots(open);
        const words = PUBLIC_WORDS[match.game] || 'the cards on the table';
        chanceCache.keep = true;
        parts.push(h('section', { class: 'card', 'aria-labelledby': 'report-call' },
          h('h2', { id: 'report-call' }, 'The deal'),
          h('p', {}, some
            ? `Each player taps in their own hand on their phone: nobody else sees it. Then tap in ${words} here.`
            : 'Each player taps in their own hand on their phone: nobody else sees it. Then report the deal here.'),
          handsLine));
        parts.push(chanceForm({
          match, names, template: open,
          title: some ? PUBLIC_TITLES[match.game] || 'Enter the table’s cards' : 'Report the deal',
          hint: some ? null : 'Every hand comes from the players’ phones: nothing more to tap here.',
          submitText: 'Report the deal',
          async send(outcome) {
            try {
              await post(`/v1/matches/${id}/chance`, { outcome, expected_version: match.version }, { token: owner || token });
            } catch (error) {
              loadHands();
              throw error;
            }
            announce('Reported. Play goes on.');
            await refresh();
          },
        }));
        parts.push(h('p', { class: 'every-hand' }, 'Someone has no phone? ', h('button', {
          type: 'button',
          class: 'link',
          onclick: () => { reporting = true; renderChance(); focusIn(chanceSlot); },
        }, 'Enter the deal with every hand here instead')));
      } else if (template && !correcting) {
        if (!reporting) {
          const kind = (match.view.chance || {}).kind;
          parts.push(h('section', { class: 'card', 'aria-labelledby': 'report-call' },
            h('h2', { id: 'report-call' }, 'The table’s cards and dice'),
            h('p', {}, chanceWaitText().split('.')[0] + '.'),
            h('button', { type: 'button', onclick: () => { reporting = true; renderChance(); focusIn(chanceSlot); } }, CHANCE_TITLES[kind] || 'Enter what came up')));
        } else {
          parts.push(chanceForm({
            match, names, template,
            title: CHANCE_TITLES[template.kind] || 'Enter what came up',
            submitText: template.kind === 'deal' ? 'Report the deal' : 'Report it',
            onCancel: () => { reporting = false; renderChance(); },
            async send(outcome) {
              remember(await post(`/v1/matches/${id}/chance`, { outcome, expected_version: match.version }, { token: owner || token }), outcome);
              reporting = false;
              announce('Reported. Play goes on.');
              await refresh();
            },
          }));
        }
      }
    }
    const last = correctable();
    if (last && mendToken()) {
      if (correcting) {
        const { template, values } = templateOf(last.chance);
        parts.push(chanceForm({
          match, names, template, values,
          title: 'Correct the last report',
          submitText: 'Save the correction',
          onCancel: () => { correcting = false; renderChance(); },
          async send(outcome) {
            remember(await post(`/v1/matches/${id}/corrections`, { outcome, expected_version: match.version }, { token: mendToken() }), outcome);
            correcting = false;
            announce('Corrected. Play goes on from the cards as they really are.');
            await refresh();
          },
        }));
      } else {
        parts.push(h('p', { class: 'correct-call' }, h('button', {
          type: 'button',
          class: 'secondary',
          onclick: () => { correcting = true; renderChance(); focusIn(chanceSlot); },
        }, 'Correct the last report')));
      }
    } else if (correcting) {
      correcting = false;
    }
    replace(chanceSlot, parts);
    if (deal) {
      renderHandsLine();
      if (!hands) loadHands();
    } else {
      // No deal of hands awaited: no reading of them either.
      handsCall += 1;
      clearTimeout(handsTimer);
    }
  }

  function renderLog() {
    const shown = wholeLog ? entries : entries.slice(-SHORT_LOG);
    const context = ctx();
    replace(logList, shown.map((entry) => h('li', {}, entryText(table(), entry, context))));
    if (!entries.length) logList.append(h('li', { class: 'muted' }, 'Nothing yet.'));
    logToggle.hidden = entries.length <= SHORT_LOG;
    logToggle.setAttribute('aria-expanded', String(wholeLog));
    logToggle.textContent = wholeLog ? 'Show only the latest' : `Show the whole log (${entries.length})`;
  }

  function renderEnd() {
    const parts = [];
    if (match.rematch) parts.push(h('p', {}, h('a', { class: 'button', href: `#match=${match.rematch}` }, 'Go to the next match')));
    if (match.status === 'finished') {
      parts.push(fairness());
      // A finished match is public (to its household, for a household's), its export included.
      parts.push(h('p', { class: 'buttons' },
        keyedDownload(h('a', { class: 'button secondary', href: `/v1/matches/${id}/export`, download: `match-${id}.json` }, 'Export (JSON)')),
        keyedDownload(h('a', { class: 'button secondary', href: `/v1/matches/${id}/bgstats`, download: `match-${id}-bgstats.json` }, 'BG Stats'))));
    }
    replace(endSlot, parts);
  }

  // --- the evening this match belongs to (once it is over) --------------------------------

  const over = () => Boolean(match) && (match.status === 'finished' || match.status === 'abandoned');

  // Drawn as the score sheet draws its evening (one card, `eveningCard`): only once the match
  // is over, and only when the evening holds more than this one game.
  function renderEvening() {
    if (!over() || !evening || (evening.sheets || []).length < 2) { replace(eveningSlot); return; }
    replace(eveningSlot, eveningCard(evening, { currentId: id, gameTitle }));
  }

  async function loadEvening() {
    if (!over()) { evening = null; renderEvening(); return; }
    const call = ++eveningCall;
    let next;
    try {
      next = await get(`/v1/matches/${id}/evening`);
    } catch {
      // The match itself still shows; the evening waits for the next change.
      return;
    }
    if (eveningLeft || call !== eveningCall) return;
    evening = next;
    renderEvening();
  }

  // --- was the shuffle fair? (checked when opened) ------------------------------------------

  let fairnessBox = null;
  function fairness() {
    // Drawn once: a poll that brings the same finished match keeps the verdict on screen.
    if (fairnessBox && fairnessBox.dataset.match === `${id} ${match.seed}`) return fairnessBox;
    const verdicts = h('ul', { class: 'plain verdicts', 'aria-live': 'polite' });
    const box = h('details', { class: 'fairness', 'data-match': `${id} ${match.seed}` },
      h('summary', {}, 'Check that the shuffle was fair'));
    fairnessBox = box;
    if (!match.seed) {
      box.append(h('p', {}, 'The table dealt its own cards: there is no seed to check.'));
      return box;
    }
    box.append(
      h('p', {}, 'When the match began, the service published the fingerprint of a secret number, the seed, that decides every shuffle and roll: ',
        h('span', { class: 'seed' }, match.seed_sha256 || '(none)'), '. Now that the match is over, the seed is shown: ',
        h('span', { class: 'seed' }, match.seed), '.'),
      verdicts);
    const say = (ok, text) => verdicts.append(h('li', { class: `verdict ${ok ? 'good' : 'bad'}` },
      h('span', { 'aria-hidden': 'true', class: 'verdict-mark' }, ok ? '✓ ' : '✗ '), text));
    let checked = false;
    box.addEventListener('toggle', async () => {
      if (!box.open || checked) return;
      checked = true;
      verdicts.replaceChildren(h('li', { class: 'muted' }, 'Checking…'));
      const result = await checkShuffle(match, await loadLog(match).catch(() => entries),
        async (path, body) => (await api('POST', path, { body })).body);
      verdicts.replaceChildren();
      if (result.fingerprint === 'same') {
        say(true, 'The seed matches its fingerprint: the shuffle was decided before the first card.');
      } else {
        say(false, 'The seed does NOT match the fingerprint published when the match began: this is not the seed the match started with, so the shuffle cannot be trusted.');
        return;
      }
      if (result.deal === 'same') say(true, 'The cards dealt at the start are the ones this seed deals: the service dealt them again from the seed and got the same table.');
      else if (result.deal === 'different') say(false, 'The cards dealt at the start are NOT the ones this seed deals.');
      else if (result.deal === 'none') verdicts.append(h('li', { class: 'muted' }, 'Nothing was dealt before the first move, so there was no opening deal to deal again.'));
      else verdicts.append(h('li', { class: 'muted' }, `The opening deal could not be dealt again here${result.reason && result.reason !== 'hidden' ? `: ${result.reason}` : ''}.`));
      verdicts.append(h('li', { class: 'muted' }, 'Later draws and deals come from the same seed; this page does not deal them again. The export below holds the seed and every card, for anyone to replay.'));
    });
    return box;
  }

  // --- the host's controls ------------------------------------------------------------------

  // The link a QR code holds, for the address other phones reach (kept on the canvas).
  function drawInvite(canvas) {
    const link = linkForPhones(canvas.dataset.join);
    canvas.dataset.link = link;
    drawQr(canvas, link);
  }

  // Opened at 127.0.0.1 or localhost, beside a new invite: other phones cannot reach this
  // address. One for the view, kept while the host's part is drawn again, so typing survives.
  let phonesNote;
  function phonesWarning() {
    if (phonesNote === undefined) {
      phonesNote = phonesCannotReach(() => ownerSlot.querySelectorAll('canvas.invite-qr').forEach(drawInvite), { level: 4 });
    }
    return phonesNote;
  }

  function inviteCard(invite) {
    const canvas = h('canvas', { class: 'invite-qr', role: 'img', 'aria-label': `Invite code for ${invite.name}, to scan`, 'data-join': invite.join });
    drawInvite(canvas);
    return h('div', { class: 'invite-card' },
      h('h4', {}, `${possessive(invite.name)} new invite`),
      canvas,
      h('p', { class: 'hint' }, 'Scan with the phone that will play. Or type the code: ', h('span', { class: 'code' }, invite.code)));
  }

  function renderOwner() {
    if (!owner) { replace(ownerSlot); return; }
    const game = match.game;
    const inProgress = match.status === 'in_progress';
    const started = entries.some((entry) => entry.seat !== null && entry.seat !== undefined);
    const sections = [];
    const controlError = h('p', { class: 'error', role: 'alert', hidden: true });

    if (inProgress) {
      const inviteSlots = {};
      const remembered = (hostedMatch(id) || {}).invites || [];
      const seatRows = match.seats.map((seat) => {
        inviteSlots[seat.seat] = h('div', { class: 'invite-slot' });
        const fresh = ownerNotice && ownerNotice.seat === seat.seat ? ownerNotice.invite : null;
        if (fresh) replace(inviteSlots[seat.seat], inviteCard(fresh), phonesWarning());
        const error = h('p', { class: 'error', role: 'alert', hidden: true });
        return h('li', {},
          h('span', { class: 'seat-name' }, seat.name),
          h('button', {
            type: 'button',
            class: 'secondary',
            async onclick(event) {
              const button = event.currentTarget;
              button.disabled = true;
              try {
                const invite = await post(`/v1/matches/${id}/seats/${seat.seat}/invite`, undefined, { token: owner });
                rememberInvite(id, invite);
                ownerNotice = { seat: seat.seat, invite };
                replace(inviteSlots[seat.seat], inviteCard(invite), phonesWarning());
                announce(`A new invite for ${invite.name} is ready to scan. The old one no longer works.`);
              } catch (failure) {
                sayRefusal(failure, ctx(), error);
              }
              button.disabled = false;
            },
          }, `New invite for ${seat.name}`),
          error,
          inviteSlots[seat.seat]);
      });
      sections.push(h('section', { class: 'owner-part', 'aria-labelledby': 'reinvite-title' },
        h('h3', { id: 'reinvite-title' }, 'A phone lost its seat?'),
        h('p', { class: 'hint' }, 'A new invite gives the seat to the phone that scans it; the old phone stops playing for it.'),
        remembered.length ? h('p', {}, h('a', { href: `#host=${id}` }, 'Show all the invite codes again')) : null,
        h('ul', { class: 'plain seat-rows' }, seatRows)));

      if (!started) {
        const select = h('select', { name: 'seat' }, match.seats.map((seat) => h('option', { value: seat.seat }, seat.name)));
        const nameInput = h('input', { type: 'text', name: 'name', autocomplete: 'off', maxlength: 64 });
        const renameForm = h('form', {
          'aria-labelledby': 'rename-title',
          async onsubmit(event) {
            event.preventDefault();
            clearFieldErrors(renameForm);
            const name = nameInput.value.trim();
            if (!name) { showFieldError(nameInput, 'Type the new name.'); return; }
            try {
              const renamed = (await api('PATCH', `/v1/matches/${id}/seats/${select.value}`, { body: { name }, token: owner })).body;
              announce(`Renamed to ${name}.`);
              nameInput.value = '';
              await refresh(true);
              // What this phone remembers of the match (its list, its invites) takes the new name.
              const kept = hostedMatch(id);
              if (kept && renamed && Array.isArray(renamed.seats)) {
                const now = renamed.seats.map((seat) => seat.name);
                const invites = (kept.invites || []).map((invite) => ({ ...invite, name: now[invite.seat] ?? invite.name }));
                rememberHosted(renamed, owner, invites);
              }
            } catch (failure) {
              sayRefusal(failure, ctx(), null, nameInput);
            }
          },
        },
        h('h3', { id: 'rename-title' }, 'Rename a player'),
        h('p', { class: 'hint' }, 'Only before the first move.'),
        field('Player', select), field('New name', nameInput),
        h('button', { type: 'submit', class: 'secondary' }, 'Rename'));
        sections.push(h('div', { class: 'owner-part' }, renameForm));
      }

      sections.push(h('section', { class: 'owner-part', 'aria-labelledby': 'stop-title' },
        h('h3', { id: 'stop-title' }, 'Stop the match'),
        h('p', { class: 'hint' }, 'For everyone, for good. It stays in the history as stopped.'),
        h('button', {
          type: 'button',
          class: 'secondary danger',
          async onclick() {
            const sure = await confirmDialog({ text: 'Stop this match for everyone? Nobody can play on in it.', yes: 'Yes, stop the match', no: 'No, keep playing' });
            if (!sure) return;
            try {
              await post(`/v1/matches/${id}/abandon`, undefined, { token: owner });
              announce('The match is stopped.');
              await refresh(true);
            } catch (failure) {
              sayRefusal(failure, ctx(), controlError);
            }
          },
        }, 'Stop the match')));
    } else if (!match.rematch) {
      sections.push(h('section', { class: 'owner-part', 'aria-labelledby': 'again-title' },
        h('h3', { id: 'again-title' }, 'Play again'),
        h('p', { class: 'hint' }, `${gameTitle(game)} again, with the same players in the same seats and new invites.`),
        h('button', {
          type: 'button',
          async onclick(event) {
            const button = event.currentTarget;
            button.disabled = true;
            try {
              const created = await post(`/v1/matches/${id}/rematch?invites=true`, undefined, { token: owner });
              rememberHosted(created.match, created.owner_token || owner, created.invites || []);
              location.hash = `host=${created.match.id}`;
            } catch (failure) {
              button.disabled = false;
              sayRefusal(failure, ctx(), controlError);
            }
          },
        }, 'Play again with the same players')));
    }
    if (!sections.length) { replace(ownerSlot); return; }
    replace(ownerSlot, h('section', { class: 'card owner', 'aria-labelledby': 'owner-title' },
      h('h2', { id: 'owner-title' }, 'For the host'), sections, controlError));
  }

  async function loadLog(of) {
    // The log comes in pages; a long match takes a few. The host of a table-randomness match
    // reads it as the owner, to see (and correct) what was reported; otherwise the phone reads
    // it as its seat, or as a spectator, so no hidden card ever shows on a phone at the table.
    const reader = of.randomness === 'table' && owner ? owner : token;
    const all = [];
    for (let after = 0; after !== null;) {
      const page = await get(`/v1/matches/${id}/log?after=${after}&limit=1000`, { token: reader });
      all.push(...page.entries);
      after = page.next_after ?? null;
    }
    return all;
  }

  function announceNew(fresh) {
    const text = newsText(table(), fresh, ctx());
    if (!text) return false;
    banner.textContent = text;
    banner.hidden = false;
    announce(`${text} ${turnText()}`);
    return true;
  }

  async function show(next, force = false) {
    // A poll and the refresh after a move often bring the same version within moments: drawn
    // twice, the move cards would be replaced under a finger that is tapping one.
    const key = `${next.version}|${next.status}|${JSON.stringify(next.seats)}`;
    if (!force && key === shownKey) return;
    shownKey = key;
    const call = ++showing;
    let fresh = entries;
    try {
      fresh = await loadLog(next);
    } catch (error) {
      loadError.textContent = refusalWords(error, { names: next.seats.map((seat) => seat.name), game: next.game });
      loadError.hidden = false;
    }
    // A later read overtook this one: it draws the table.
    if (call !== showing) return;
    entries = fresh;
    match = next;
    names = match.seats.map((seat) => seat.name);
    heading.textContent = `${gameTitle(match.game)}: ${names.join(', ')}`;
    const newest = entries.length ? entries[entries.length - 1].ply : 0;
    const news = lastPly !== null && newest > lastPly && announceNew(entries.filter((entry) => entry.ply > lastPly));
    lastPly = newest;
    const text = turnText();
    turn.textContent = text;
    // Which version the phone shows (for tests, and for anyone reading the page's source).
    turn.dataset.version = String(match.version);
    if (lastTurn && text !== lastTurn && !news) announce(text);
    lastTurn = text;
    renderTable();
    renderMoves();
    renderChance();
    renderStandings();
    renderLog();
    renderOwner();
    renderEnd();
    loadEvening();
  }

  const reader = () => token || null;

  async function refresh(force = false) {
    try {
      const next = await get(`/v1/matches/${id}`, { token: reader() });
      if (force || !match || next.version !== match.version || next.status !== match.status || JSON.stringify(next.seats) !== JSON.stringify(match.seats)) await show(next, force);
    } catch { /* the follower reports */ }
  }

  games().then(() => {
    if (match) heading.textContent = `${gameTitle(match.game)}: ${names.join(', ')}`;
    if (match) renderEvening();
  }).catch(() => null);
  const stop = follow(`/v1/matches/${id}`, {
    token: reader(),
    streamPath: `/v1/matches/${id}/stream`,
    onData(next) {
      loadError.hidden = true;
      if (!match || next.version !== match.version || next.status !== match.status || JSON.stringify(next.seats) !== JSON.stringify(match.seats)) show(next);
      // The match's stream moved: who has entered their hand may have too.
      else if (handDeal()) loadHands();
    },
    onError(error) {
      loadError.textContent = refusalWords(error, { names, game: match && match.game });
      loadError.hidden = false;
    },
    quiet: () => match && match.status !== 'in_progress',
  });
  return () => {
    handsLeft = true;
    eveningLeft = true;
    clearTimeout(handsTimer);
    stop();
  };
}

/** Moves focus to the first heading or control in `container` (a form that just opened). */
function focusIn(container) {
  const target = container.querySelector('h2, button, input');
  if (!target) return;
  if (target.tagName === 'H2') target.setAttribute('tabindex', '-1');
  target.focus();
}
