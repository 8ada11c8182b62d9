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

// --- hosted matches: the owner token of a match hosted from this phone, and its invites --------

const HOSTED = 'referee.hosted';

/** Keeps the owner token of a match this phone hosts, with its game, players and invites (each
 * `{seat, name, code, join}`), so the host can show the invite QR codes again. */
export function rememberHosted(match, ownerToken, invites = []) {
  const hosted = load(HOSTED);
  hosted[match.id] = {
    token: ownerToken,
    game: match.game,
    players: match.seats.map((seat) => seat.name),
    invites,
    created: match.created_at,
  };
  save(HOSTED, hosted);
}

export const ownerToken = (matchId) => (load(HOSTED)[matchId] || {}).token || null;

/** What this phone remembers of a match it hosts (`{token, game, players, invites}`), or null. */
export const hostedMatch = (matchId) => load(HOSTED)[matchId] || null;

/** Replaces one seat's invite (a re-issued code) in what this phone remembers. */
export function rememberInvite(matchId, invite) {
  const hosted = load(HOSTED);
  if (!hosted[matchId]) return;
  hosted[matchId].invites = [...(hosted[matchId].invites || []).filter((old) => old.seat !== invite.seat), invite]
    .sort((a, b) => a.seat - b.seat);
  save(HOSTED, hosted);
}

/** The matches this phone hosts, newest first. */
export function myHostedMatches() {
  return Object.entries(load(HOSTED))
    .map(([id, match]) => ({ id, ...match }))
    .sort((a, b) => String(b.created).localeCompare(String(a.created)));
}
