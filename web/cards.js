// Cards and dice as pictures, and pickers to enter them by tapping. A card is the API's own JSON
// value for it (a Lucky Jack symbol, a Luck Plus card code, a Plus & Minus rank...).
// STUB: minimal versions of the interface other modules build on.

import { h } from './dom.js';

/** The card in plain words ("Go 3", "Ace", "Lemon"). */
export function cardLabel(game, card) {
  void game;
  return typeof card === 'string' ? card : JSON.stringify(card);
}

/** The card as a picture (an element with role img and the label as its name). */
export function cardFace(game, card) {
  const label = cardLabel(game, card);
  return h('span', { class: 'card-face', role: 'img', 'aria-label': label }, label);
}

/** A die showing `value`. */
export function dieFace(value) {
  return h('span', { class: 'die-face', role: 'img', 'aria-label': `Die showing ${value}` }, String(value));
}

/** `text` typed by a person, in any common spelling, as the game's card; throws if none. */
export function parseCard(game, text) {
  void game;
  return String(text).trim();
}
