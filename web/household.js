// The phone's household (docs/households.md): a group whose games only its phones see. A phone
// that remembers nothing makes one the first time it starts a sheet or hosts; one that already
// keeps public records stays public until the family makes one on purpose. Other phones join by a
// QR code, as a phone that keeps score too (the owner key) or one that only follows (the reader
// key). The link carries the key in its fragment, which never reaches the service; the page keeps
// it and drops it from the address at once.
//   #household=<id>&key=<key>[&reader=<reader key>]   joins (the owner link carries both keys,
//                                                     so a phone that keeps score can share a
//                                                     follow-only link too)

import { get, post } from './api.js';
import { h, replace, announce } from './dom.js';
import { drawQr } from './qr.js';
import { explain } from './messages.js';
import { household, setHousehold, forgetHousehold, remembersRecords, mySheets, roster, setSheetHousehold } from './store.js';

/** The name a household made on first use gets: the family can make another with its own. */
export const DEFAULT_NAME = 'Our household';

/** Which key a link carries, by its prefix: only an owner key makes records. */
export const roleOf = (key) => (String(key).startsWith('hh_owner_') ? 'owner' : 'reader');

/** "The Lees’ games", "Our household’s games". */
export const possessive = (name) => (/s$/i.test(name) ? `${name}’` : `${name}’s`);

/** Makes a household named `name` and keeps both its keys (they are shown only once). */
export async function makeHousehold(name = DEFAULT_NAME) {
  const made = await post('/v1/households', { name });
  setHousehold({ id: made.household.id, name: made.household.name, key: made.owner_key, role: 'owner', readerKey: made.reader_key });
  return household();
}

/** Before a phone's first record: a phone that keeps nothing yet gets a household of its own. */
export async function ensureHousehold() {
  if (household() || remembersRecords()) return;
  await makeHousehold();
  announce(`This phone now keeps score for ${DEFAULT_NAME}.`);
}

/** The fragment's part that joins this phone's household as `role` (`owner` or `reader`), or ''
 * when this phone has no household or no key of that role. */
export function householdParams(role) {
  const mine = household();
  if (!mine) return '';
  const key = role === 'owner' ? (mine.role === 'owner' ? mine.key : null) : mine.readerKey;
  if (!key) return '';
  const reader = role === 'owner' && mine.readerKey ? `&reader=${encodeURIComponent(mine.readerKey)}` : '';
  return `household=${encodeURIComponent(mine.id)}&key=${encodeURIComponent(key)}${reader}`;
}

/** Whether a sheet kept as made in `householdId` (`undefined`: not kept here, so perhaps the
 * household's) is this phone's household's: its links then carry a key. */
export function inThisHousehold(householdId) {
  const mine = household();
  return Boolean(mine) && (householdId === undefined || householdId === mine.id);
}

const JOIN_PARAMS = ['household', 'key', 'reader'];

/**
 * Takes the household a link carries (`params`, the fragment's): drops its keys from the address
 * first, checks the key with the service (`GET /v1/households/{id}`), then keeps it, asking
 * `ask(question)` first when this phone belongs to another household. Resolves to
 * `{joined, problem}`: a refusal is the service's problem, in the catalogue's words by `explain`.
 */
export async function joinFromLink(params, ask) {
  const id = params.get('household');
  const key = params.get('key');
  const reader = params.get('reader');
  for (const name of JOIN_PARAMS) params.delete(name);
  history.replaceState(null, '', `#${params}`);
  const role = roleOf(key);
  const mine = household();
  // The same household: a stronger key (or a reader key this phone lacked) is kept, never a weaker.
  const gains = mine && mine.id === id && ((role === 'owner' && mine.role !== 'owner') || (!mine.readerKey && (reader || role === 'reader')));
  if (mine && mine.id === id && !gains) return { joined: true };
  let found;
  try {
    found = await get(`/v1/households/${encodeURIComponent(id)}`, { householdKey: key });
  } catch (error) {
    return { joined: false, problem: error.problem || {} };
  }
  if (mine && mine.id === id) {
    const stronger = role === 'owner' ? key : mine.key;
    setHousehold({ ...mine, name: found.name, key: stronger, role: roleOf(stronger), readerKey: mine.readerKey || reader || (role === 'reader' ? key : null) });
    return { joined: true };
  }
  if (mine && !(await ask(switchQuestion(mine, found.name)))) return { joined: false };
  setHousehold({ id, name: found.name, key, role, readerKey: role === 'reader' ? key : reader });
  announce(role === 'owner' ? `This phone now keeps score for ${found.name}.` : `This phone now follows ${possessive(found.name)} games.`);
  return { joined: true };
}

function switchQuestion(mine, offered) {
  const current = mine.name;
  // Two households made on first use share the default name: say it is another one all the same.
  const joins = offered === current ? `another household, also called ${offered}` : offered;
  // The key this phone keeps may be the household's only copy: its games would be lost with it.
  const only = mine.role === 'owner' ? ` If no other phone keeps score for ${current}, share its code with one first.` : '';
  return {
    title: 'Switch this phone to another household?',
    text: `This phone belongs to ${current}. The link you opened joins ${joins}: this phone would then show that household’s games and players, `
      + `and no longer ${possessive(current)}, until it joins ${current} again with their code.${only}`,
    yes: offered === current ? 'Switch households' : `Switch to ${offered}`,
    no: `Stay with ${current}`,
  };
}

/** One line for Look back: whose records these are. */
export function spaceLine() {
  const mine = household();
  return mine ? `${possessive(mine.name)} games: only the household’s phones see them.` : 'Games played on this service without a household.';
}

/** The line a phone that only follows shows where it would start a sheet or host. */
export const followerLine = (mine) => `This phone follows ${possessive(mine.name)} games: it shows them but keeps no score. Ask whoever keeps score for the code of a phone that keeps score too.`;

/** A QR code and link that joins this household as `role`, with what it gives. */
function joinCode(role, title, text) {
  const link = `${location.origin}/#${householdParams(role)}`;
  const canvas = h('canvas', { role: 'img', 'aria-label': `QR code: ${title.toLowerCase()}` });
  const block = h('div', { class: 'join-code' },
    h('h3', {}, title),
    h('p', {}, text),
    canvas,
    h('p', {}, h('a', { href: link, class: `household-link ${role}` }, `The link for ${title.toLowerCase()}`)));
  drawQr(canvas, link);
  return block;
}

/**
 * The home screen's household card: the household's name and what this phone does in it, with
 * "Share the household" (its join codes); or, for a phone without one, what a household is and,
 * when the phone keeps public records, a button that makes one. `onChange()` redraws the screen.
 */
export function householdCard(onChange, gameTitle = (slug) => slug) {
  const mine = household();
  if (!mine) {
    const error = h('p', { class: 'error', role: 'alert', hidden: true });
    if (!remembersRecords()) {
      return h('section', { class: 'card household', 'aria-labelledby': 'household-title' },
        h('h2', { id: 'household-title', tabindex: -1 }, 'Household'),
        h('p', {}, 'Your first sheet makes a household for this phone: its games are kept for the household’s phones only.'));
    }
    const make = h('button', {
      type: 'button',
      class: 'secondary',
      async onclick() {
        make.disabled = true;
        try {
          const made = await makeHousehold();
          announce(`This phone now keeps score for ${made.name}.`);
          onChange();
        } catch (failure) {
          make.disabled = false;
          error.textContent = explain(failure.problem);
          error.hidden = false;
        }
      },
    }, 'Make a household');
    return h('section', { class: 'card household', 'aria-labelledby': 'household-title' },
      h('h2', { id: 'household-title', tabindex: -1 }, 'Household'),
      h('p', {}, 'This phone’s games are kept without a household. With one, new games are kept for the household’s phones only, and other phones join it by a QR code.'),
      error, make);
  }
  const owner = mine.role === 'owner';
  const codes = [
    owner ? joinCode('owner', 'A phone that keeps score too', 'It starts sheets and hosts matches for the household, and sees all of its games.') : null,
    mine.readerKey ? joinCode('reader', 'A phone that only follows', 'It sees the household’s games and players, and keeps no score.') : null,
  ];
  const leave = owner ? null : h('p', {}, h('button', {
    type: 'button',
    class: 'link',
    onclick() {
      forgetHousehold();
      announce(`This phone no longer follows ${possessive(mine.name)} games.`);
      onChange();
    },
  }, 'Stop following on this phone'));
  return h('section', { class: 'card household', 'aria-labelledby': 'household-title' },
    h('h2', { id: 'household-title', tabindex: -1 }, mine.name),
    // A phone that only follows says so above, where the sheet's form would be.
    owner ? h('p', { class: 'household-role' }, `This phone keeps score for ${mine.name}. New games are kept for the household’s phones only.`) : null,
    owner ? bringInCard(mine, gameTitle) : null,
    h('details', { class: 'share-household' },
      h('summary', {}, 'Share the household'),
      h('p', { class: 'hint' }, 'Scan a code with the other phone’s camera, or open its link there. Show them only to your own household: a code opens every game the household keeps.'),
      codes),
    leave);
}

/** The sheets this phone kept before it had a household (still in the public space). */
const publicSheets = () => mySheets().filter((sheet) => !sheet.household);

/** "Lucky Jack 2, Lucky Luau 1". */
const perGame = (games, gameTitle) => games.map((game) => `${gameTitle(game.game)} ${game.records}`).join(', ');

/** What a bring-in's report says, in a family's words. */
function reportText(report, gameTitle) {
  const would = report.dry_run ? 'would move' : 'moved';
  const moved = report.moved === 0 ? `No game ${would}.`
    : `${report.moved} ${report.moved === 1 ? 'game' : 'games'} ${would} into the household (${perGame(report.games, gameTitle)}).`;
  const stays = report.left_behind.map((left) => (left.reason === 'in_play'
    ? `${gameTitle(left.game)} with ${left.players.join(', ')}: still being played`
    : `${gameTitle(left.game)} with ${left.players.join(', ')}: ${left.others.join(' and ')} ${left.others.length === 1 ? 'is' : 'are'} not ticked`));
  return [moved, report.stayed ? `${report.stayed} ${report.stayed === 1 ? 'stays' : 'stay'} without the household: ${stays.join('; ')}.` : ''];
}

/**
 * For a phone that kept sheets before it had a household: bring them in (POST
 * /v1/households/{id}/bring-in). The family ticks its players (this phone's names); every game
 * that has ended with only ticked players at it moves, with their records and ratings. "See what
 * would move" asks first without moving anything.
 */
function bringInCard(mine, gameTitle) {
  const earlier = publicSheets();
  if (!earlier.length) return null;
  const names = [...new Set([...roster(), ...earlier.flatMap((sheet) => sheet.players || [])])];
  const boxes = names.map((name) => h('label', {}, h('input', { type: 'checkbox', name: 'player', value: name, checked: true }), ` ${name}`));
  const said = h('div', { 'aria-live': 'polite' });
  const ticked = () => boxes.map((box) => box.querySelector('input')).filter((input) => input.checked).map((input) => input.value);
  async function ask(dryRun, button) {
    const players = ticked();
    if (!players.length) {
      replace(said, h('p', { class: 'error' }, 'Tick at least one player.'));
      return;
    }
    button.disabled = true;
    try {
      const report = await post(`/v1/households/${encodeURIComponent(mine.id)}/bring-in`, { players, dry_run: dryRun });
      replace(said, reportText(report, gameTitle).filter(Boolean).map((text) => h('p', {}, text)));
      if (!dryRun) {
        const stayed = new Set(report.left_behind.map((left) => left.id));
        const chosen = new Set(players.map((name) => name.toLocaleLowerCase()));
        // This phone's links to the sheets that moved carry the household's key from now on.
        for (const sheet of earlier) {
          const all = (sheet.players || []).every((name) => chosen.has(name.toLocaleLowerCase()));
          if (all && !stayed.has(sheet.id)) setSheetHousehold(sheet.id, mine.id);
        }
        announce(`${report.moved} ${report.moved === 1 ? 'game' : 'games'} moved into ${mine.name}.`);
      }
    } catch (failure) {
      replace(said, h('p', { class: 'error', role: 'alert' }, explain(failure.problem)));
    } finally {
      button.disabled = false;
    }
  }
  const preview = h('button', { type: 'button', class: 'secondary', onclick: () => ask(true, preview) }, 'See what would move');
  const bring = h('button', { type: 'button', onclick: () => ask(false, bring) }, 'Bring them in');
  return h('details', { class: 'bring-in' },
    h('summary', {}, 'Bring in this phone’s earlier games'),
    h('p', { class: 'hint' }, 'Games kept before the household stay visible to anyone with their link. Tick your players: every finished game played only by them moves into the household, with their records and ratings.'),
    h('fieldset', { class: 'checks' }, h('legend', {}, 'Our players'), boxes),
    h('p', { class: 'buttons' }, preview, bring),
    said);
}

/** Replaces `main` with a screen saying why a household link could not be used. */
export function refusedScreen(main, problem) {
  replace(main,
    h('h1', { tabindex: -1 }, 'This household code cannot be used'),
    h('p', { class: 'error', role: 'alert' }, explain(problem)),
    h('p', {}, h('a', { href: '#' }, 'Back to the start')));
}
