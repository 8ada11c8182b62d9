// What this phone remembers: its household, the owner tokens of the sheets it started and the
// seat tokens it was given. Tokens and keys live only here, and in the links made to hand them on.
// It also keeps the last known state of its sheets and the list of games, to show them offline.

const SHEETS = 'referee.sheets';
const SEATS = 'referee.seats';
const COPIES = 'referee.sheet-copies';

function load(key) {
  try { return JSON.parse(localStorage.getItem(key)) || {}; } catch { return {}; }
}

function save(key, value) {
  try { localStorage.setItem(key, JSON.stringify(value)); } catch { /* private mode: session only */ }
}

/** Keeps a sheet this phone started, with the household it was made in (`null`: the public
 * space), so its links can carry the household's key. */
export function rememberSheet(sheet, ownerToken, householdId = (household() || {}).id || null) {
  const sheets = load(SHEETS);
  sheets[sheet.id] = {
    token: ownerToken,
    game: sheet.game,
    players: sheet.players.map((player) => player.name),
    created: sheet.created_at,
    household: householdId,
  };
  save(SHEETS, sheets);
}

export const sheetToken = (id) => (load(SHEETS)[id] || {}).token || null;

/** The household a sheet this phone keeps was made in: its id, `null` for the public space (and
 * for sheets kept before the page knew households), `undefined` for a sheet it does not keep. */
export function sheetHousehold(id) {
  const sheet = load(SHEETS)[id];
  return sheet ? sheet.household || null : undefined;
}

/** Records that a sheet this phone keeps now belongs to the household `householdId`. */
export function setSheetHousehold(id, householdId) {
  const sheets = load(SHEETS);
  if (!sheets[id]) return;
  sheets[id].household = householdId;
  save(SHEETS, sheets);
}

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
  const copies = load(COPIES);
  delete copies[id];
  save(COPIES, copies);
}

// --- the last known state of the sheets this phone keeps, shown while it is offline -----------

/** How many sheets' copies are kept: the most recently seen ones (a phone's storage is small). */
const COPIES_KEPT = 12;

/** Keeps `sheet` as this phone last saw it, with when; only for a sheet this phone keeps. */
export function keepSheetCopy(sheet) {
  if (!sheetToken(sheet.id)) return;
  const copies = load(COPIES);
  copies[sheet.id] = { seen: new Date().toISOString(), sheet };
  const newest = Object.entries(copies)
    .sort(([, a], [, b]) => String(b.seen).localeCompare(String(a.seen)))
    .slice(0, COPIES_KEPT);
  save(COPIES, Object.fromEntries(newest));
}

/** The last copy kept of sheet `id` (`{seen, sheet}`), or null. */
export const sheetCopy = (id) => load(COPIES)[id] || null;

// The list of games (titles, player counts, options), for a page opened offline.
const GAMES = 'referee.games';
export const keepGames = (list) => save(GAMES, list);
export function keptGames() {
  const list = load(GAMES);
  return Array.isArray(list) && list.length ? list : null;
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

// --- the roster: names used on this phone, most recent first --------------------------------

const ROSTER = 'referee.roster';
const ROSTER_SIZE = 24;

export function roster() {
  const names = load(ROSTER);
  return Array.isArray(names) ? names : [];
}

/** Puts `names` at the front of the roster (one entry per name, whatever its case). */
export function rememberNames(names) {
  const fresh = names.map((name) => String(name).trim()).filter(Boolean);
  const keys = new Set(fresh.map((name) => name.toLocaleLowerCase()));
  const kept = roster().filter((name) => !keys.has(name.toLocaleLowerCase()));
  save(ROSTER, [...fresh, ...kept].slice(0, ROSTER_SIZE));
}

export function forgetName(name) {
  save(ROSTER, roster().filter((kept) => kept !== name));
}

/** A player renamed: the roster keeps the new name where the old one was (at the front when the
 * old one was not kept), and no longer offers the old one. */
export function renameInRoster(oldName, newName) {
  const fresh = String(newName).trim();
  if (!fresh) return;
  const oldKey = String(oldName).trim().toLocaleLowerCase();
  const newKey = fresh.toLocaleLowerCase();
  const names = roster();
  const at = names.findIndex((name) => name.toLocaleLowerCase() === oldKey);
  const kept = names.filter((name) => name.toLocaleLowerCase() !== oldKey && name.toLocaleLowerCase() !== newKey);
  kept.splice(at >= 0 ? Math.min(at, kept.length) : 0, 0, fresh);
  save(ROSTER, kept.slice(0, ROSTER_SIZE));
}

/** The players of a sheet this phone keeps, as the sheet now names them (after a rename): its
 * line in the list of sheets follows. Nothing for a sheet it does not keep, or when unchanged. */
export function keepSheetPlayers(sheet) {
  const sheets = load(SHEETS);
  const kept = sheets[sheet.id];
  if (!kept || !Array.isArray(sheet.players)) return;
  const players = sheet.players.map((player) => player.name);
  if (JSON.stringify(kept.players) === JSON.stringify(players)) return;
  kept.players = players;
  save(SHEETS, sheets);
}

/** A new owner token for a sheet this phone keeps (handed over, or received, with the household
 * it belongs to when the link said so). */
export function setSheetToken(id, token, sheet = null, householdId = undefined) {
  const sheets = load(SHEETS);
  sheets[id] = { ...(sheets[id] || {}), token };
  if (householdId !== undefined) sheets[id].household = householdId;
  if (sheet) {
    sheets[id].game = sheet.game;
    sheets[id].players = sheet.players.map((player) => player.name);
    sheets[id].created = sheet.created_at;
  }
  save(SHEETS, sheets);
}

/** Sheets this phone handed to another phone: it says so instead of offering its old controls. */
const HANDED = 'referee.handed';
export function markHandedOver(id) {
  const handed = load(HANDED);
  handed[id] = new Date().toISOString();
  save(HANDED, handed);
}
export const handedOver = (id) => Boolean(load(HANDED)[id]);

// --- rounds waiting to be sent (saved offline) ----------------------------------------------

const OUTBOX = 'referee.outbox';

/** The rounds waiting to be sent to `sheetId`, oldest first. */
export function outbox(sheetId) {
  return (load(OUTBOX)[sheetId] || []);
}

/** Queues `body` for `sheetId` with its own Idempotency-Key; returns the queued item. */
export function queueRound(sheetId, body) {
  const all = load(OUTBOX);
  const item = { key: crypto.randomUUID(), body, queued: new Date().toISOString(), refusal: null };
  all[sheetId] = [...(all[sheetId] || []), item];
  save(OUTBOX, all);
  return item;
}

export function updateQueued(sheetId, key, changes) {
  const all = load(OUTBOX);
  all[sheetId] = (all[sheetId] || []).map((item) => (item.key === key ? { ...item, ...changes } : item));
  save(OUTBOX, all);
}

export function dropQueued(sheetId, key) {
  const all = load(OUTBOX);
  all[sheetId] = (all[sheetId] || []).filter((item) => item.key !== key);
  if (!all[sheetId].length) delete all[sheetId];
  save(OUTBOX, all);
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

// --- the household: a group whose records only its phones see (docs/households.md) ------------

const HOUSEHOLD = 'referee.household';

/** This phone's household, `{id, name, key, role, readerKey}` (role `owner` or `reader`; the
 * reader key, when known, makes follow-only links), or null: the public space. */
export function household() {
  const kept = load(HOUSEHOLD);
  return kept && kept.id && kept.key ? kept : null;
}

export function setHousehold({ id, name, key, role, readerKey = null }) {
  save(HOUSEHOLD, { id, name, key, role, readerKey: role === 'reader' ? key : readerKey });
}

export function forgetHousehold() {
  try { localStorage.removeItem(HOUSEHOLD); } catch { /* nothing kept */ }
}

/** Whether this phone keeps anything from the public space: a sheet, a hosted match or a seat.
 * Such a phone stays there until the family makes a household on purpose. */
export function remembersRecords() {
  return [SHEETS, HOSTED, SEATS].some((key) => Object.keys(load(key)).length > 0);
}
