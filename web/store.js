// What this phone remembers: the owner tokens of the sheets it started and the seat tokens it
// was given. Tokens live only here, never in a link the page shares.

const SHEETS = 'referee.sheets';
const SEATS = 'referee.seats';

function load(key) {
  try { return JSON.parse(localStorage.getItem(key)) || {}; } catch { return {}; }
}

function save(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode: session only */ }
}

export function rememberSheet(sheet, ownerToken) {
  const sheets = load(SHEETS);
  sheets[sheet.id] = {
    token: ownerToken,
    game: sheet.game,
    players: sheet.players.map((player) => player.name),
    created: sheet.created_at,
  };
  save(SHEETS, sheets);
}

export const sheetToken = (id) => (load(SHEETS)[id] || {}).token || null;

/** The sheets this phone owns, newest first. */
export function mySheets() {
  return Object.entries(load(SHEETS))
    .map(([id, sheet]) => ({ id, ...sheet }))
    .sort((a, b) => String(b.created).localeCompare(String(a.created)));
}

export function forgetSheet(id) {
  const sheets = load(SHEETS);
  delete sheets[id];
  save(SHEETS, sheets);
}

export function rememberSeat(matchId, token) {
  const seats = load(SEATS);
  seats[matchId] = token;
  save(SEATS, seats);
}

export const seatToken = (matchId) => load(SEATS)[matchId] || null;

export function forgetSeat(matchId) {
  const seats = load(SEATS);
  delete seats[matchId];
  save(SEATS, seats);
}
