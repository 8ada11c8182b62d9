// Score sheets: starting one, keeping it (owner), and showing it read-only to the rest of the
// table, updating as entries arrive. The evening is the unit: names remembered on this phone,
// "play again" chaining sheets, one share link for the chain that follows the current sheet,
// undo, rename, finish early, handing the sheet to another phone, rounds queued while offline.

import { get, post, api, follow, keyedDownload } from './api.js';
import { h, replace, field, uid, showFieldError, clearFieldErrors, announce, formatNumber, formatTime, linkOrigin, phonesCannotReach } from './dom.js';
import { roundForm, describeTally, roundBreakdown } from './rounds.js';
import { optionsEditor, sheetTarget } from './options.js';
import { placeOf, refusalWords, showRefusal } from './messages.js';
import { drawQr } from './qr.js';
import { amount } from './tables/common.js';
import {
  rememberSheet, sheetToken, mySheets, forgetSheet, roster, rememberNames, forgetName, renameInRoster, setSheetToken,
  markHandedOver, handedOver, outbox, queueRound, updateQueued, dropQueued, household, sheetHousehold,
  keepSheetCopy, sheetCopy, keepGames, keptGames, keepSheetPlayers,
} from './store.js';
import { ensureHousehold, householdCard, householdParams, inThisHousehold, followerLine } from './household.js';

let catalogue = null;
/** The games the service referees; offline, the list this phone kept from its last visit. */
export async function games() {
  if (catalogue) return catalogue;
  try {
    catalogue = await get('/v1/games');
    keepGames(catalogue);
  } catch (error) {
    catalogue = keptGames();
    if (!catalogue) throw error;
  }
  return catalogue;
}

export const gameTitle = (slug) => ((catalogue || []).find((game) => game.slug === slug) || {}).title || slug;

const isOffline = (error) => Boolean(error && error.problem && (error.problem.status === 0 || error.problem.code === 'offline'));
const isTokenRefused = (error) => Boolean(error && error.problem && error.problem.code === 'invalid_token');

// --- home: a new sheet and this phone's sheets ------------------------------------------------

export async function homeView(main) {
  const catalogueList = await games();
  const gameSelect = h('select', { name: 'game' }, catalogueList.map((game) => h('option', { value: game.slug }, `${game.title} (${game.min_players}–${game.max_players} players)`)));
  const optionsSlot = h('div');
  const target = h('p', { class: 'target', id: uid('target') });
  const playerList = h('ol', { class: 'players' });
  const addButton = h('button', { type: 'button', class: 'secondary' }, 'Add a player');
  const chips = h('ul', { class: 'chips' });
  const chipsBox = h('div', { class: 'roster' },
    h('p', { class: 'hint', id: 'roster-hint' }, 'Played here before: tap a name to add them.'), chips);
  const formError = h('p', { class: 'error', tabindex: -1, hidden: true, role: 'alert' });
  let options = null;

  const currentGame = () => catalogueList.find((game) => game.slug === gameSelect.value);
  const playerInputs = () => [...playerList.querySelectorAll('input')];
  const typedNames = () => playerInputs().map((input) => input.value.trim()).filter(Boolean);

  function addPlayer(name = '') {
    const index = playerList.children.length + 1;
    const input = h('input', { type: 'text', name: 'player', autocomplete: 'off', maxlength: 64, value: name });
    input.addEventListener('input', renderChips);
    const remove = h('button', { type: 'button', class: 'link', 'aria-label': `Remove player ${index}` }, 'Remove');
    const item = h('li', {}, field(`Player ${index}`, input), remove);
    remove.addEventListener('click', () => {
      item.remove();
      relabel();
      renderChips();
      addButton.focus();
    });
    playerList.append(item);
    relabel();
    return input;
  }

  function relabel() {
    const game = currentGame();
    [...playerList.children].forEach((item, index) => {
      item.querySelector('label').textContent = `Player ${index + 1}`;
      const remove = item.querySelector('button');
      remove.setAttribute('aria-label', `Remove player ${index + 1}`);
      remove.hidden = playerList.children.length <= game.min_players;
    });
    addButton.hidden = playerList.children.length >= game.max_players;
  }

  // The roster: names used on this phone, most recent first; one tap seats a player.
  function renderChips() {
    const seated = new Set(typedNames().map((name) => name.toLocaleLowerCase()));
    const names = roster().filter((name) => !seated.has(name.toLocaleLowerCase()));
    chipsBox.hidden = names.length === 0;
    replace(chips, names.map((name) => h('li', { class: 'chip' },
      h('button', { type: 'button', class: 'chip-name', onclick: () => seat(name) },
        h('span', { 'aria-hidden': 'true' }, '+ '), h('span', { class: 'visually-hidden' }, 'Add '), name),
      h('button', {
        type: 'button',
        class: 'chip-forget',
        'aria-label': `Forget ${name} on this phone`,
        onclick: () => { forgetName(name); renderChips(); (chips.querySelector('button') || addButton).focus(); },
      }, '×'))));
  }

  function seat(name) {
    let input = playerInputs().find((candidate) => !candidate.value.trim());
    if (!input) {
      if (playerList.children.length >= currentGame().max_players) {
        showRefusal(new Error(`${currentGame().title} is for at most ${currentGame().max_players} players.`), { slot: formError });
        return;
      }
      input = addPlayer();
    }
    input.value = name;
    renderChips();
    announce(`${name} added.`);
    (chips.querySelector('button') || input).focus();
  }

  function showTarget() {
    target.textContent = sheetTarget(gameSelect.value, { ...currentGame().default_options, ...options.read() }, playerInputs().length);
  }

  function chooseGame() {
    const game = currentGame();
    options = optionsEditor(game, { forSheet: true });
    options.element.addEventListener('change', showTarget);
    options.element.addEventListener('input', showTarget);
    replace(optionsSlot, options.element);
    while (playerList.children.length < game.min_players) addPlayer();
    while (playerList.children.length > game.max_players) playerList.lastChild.remove();
    relabel();
    showTarget();
  }

  gameSelect.addEventListener('change', chooseGame);
  addButton.addEventListener('click', () => { addPlayer().focus(); showTarget(); });

  async function start(event) {
    event.preventDefault();
    clearFieldErrors(form);
    formError.hidden = true;
    const inputs = playerInputs();
    const names = inputs.map((input) => input.value.trim());
    const body = { game: gameSelect.value, players: names.map((name) => ({ name })), options: options.read() };
    const empty = inputs.find((input) => !input.value.trim());
    if (empty) {
      showRefusal(new Error('Every player needs a name.'), { control: empty, slot: formError });
      return;
    }
    try {
      // A phone's first sheet makes its household, so the family's games stay the family's.
      await ensureHousehold();
      const created = await post('/v1/sheets', body);
      rememberSheet(created.sheet, created.owner_token);
      rememberNames(names);
      location.hash = `sheet=${created.sheet.id}`;
    } catch (error) {
      const problem = error.problem || {};
      const params = problem.params || {};
      const place = error.problem ? placeOf(problem) : { seat: null, field: null };
      let control = null;
      if (params.option) control = options.control(params.option);
      else if (Number.isInteger(place.seat)) control = inputs[place.seat];
      else if (params.name) control = inputs.find((input) => input.value.trim().toLowerCase() === String(params.name).toLowerCase());
      if (control && control.closest('details')) control.closest('details').open = true;
      showRefusal(error, { control, slot: formError, context: { names, game: gameSelect.value } });
    }
  }

  const form = h('form', { class: 'card', onsubmit: start, novalidate: true, 'aria-labelledby': 'new-sheet' },
    h('h2', { id: 'new-sheet' }, 'New score sheet'),
    formError,
    field('Game', gameSelect),
    target,
    optionsSlot,
    h('fieldset', {}, h('legend', {}, 'Players, clockwise'), chipsBox, playerList, addButton),
    h('button', { type: 'submit' }, 'Start the sheet'));
  chooseGame();
  renderChips();

  const mine = mySheets();
  const here = household();
  // A phone that only follows its household keeps no score: it says so instead of the form.
  const follows = here && here.role === 'reader';
  replace(main,
    h('h1', { tabindex: -1 }, 'Keep score'),
    h('p', { class: 'lead' }, 'Play with your own cards and dice; the sheet does the sums, ranks and corrections.'),
    follows ? h('p', { class: 'card follower' }, followerLine(here)) : form,
    householdCard(() => homeView(main).then(() => main.querySelector('#household-title').focus()), gameTitle),
    h('section', { class: 'card', 'aria-labelledby': 'my-sheets' },
      h('h2', { id: 'my-sheets' }, 'Sheets kept on this phone'),
      mine.length
        ? h('ul', { class: 'plain' }, mine.map((sheet) => h('li', {},
          h('a', { href: `#sheet=${sheet.id}` }, `${gameTitle(sheet.game)}: ${(sheet.players || []).join(', ')}`),
          h('span', { class: 'muted' }, ` ${formatTime(sheet.created)}`))))
        : h('p', { class: 'muted' }, 'None yet.')));
}

// --- one sheet ---------------------------------------------------------------------------------

/** The household's part of a sheet's link, for a sheet of this phone's household (whose key the
 * other phone needs to read it): `role` is what the other phone becomes in the household. */
function householdPart(id, role) {
  const part = inThisHousehold(sheetHousehold(id)) ? householdParams(role) : '';
  return part ? `&${part}` : '';
}

function shareLink(id) {
  // Read-only: the sheet id, never the owner token; a household's sheet, its follow-only key.
  return `${linkOrigin()}/#sheet=${encodeURIComponent(id)}${householdPart(id, 'reader')}`;
}

function handoverLink(id, token) {
  // The fragment never reaches the service; the receiving phone keeps the token (and joins the
  // household, which keeps score with it) and drops them from its address.
  return `${linkOrigin()}/#sheet=${encodeURIComponent(id)}&owner=${encodeURIComponent(token)}${householdPart(id, 'owner')}`;
}

const names = (sheet) => sheet.players.map((player) => player.name);
/** The entry of a play brought in from another score keeper (BG Stats): it has final scores and
 * no rounds. */
const importEntry = (sheet) => (sheet.entries || []).find((entry) => entry.kind === 'import') || null;
const dateOf = (iso) => (iso ? new Date(iso).toLocaleDateString(undefined, { dateStyle: 'long' }) : '');
const joinNames = (list) => (list.length <= 1 ? list.join('') : `${list.slice(0, -1).join(', ')} and ${list[list.length - 1]}`);

/**
 * The evening a game belongs to, as a card ("This evening"): the games in the order they began,
 * each linked to its page (a sheet's, or a hosted match's) but `currentId`'s, marked "this one",
 * each one's outcome in words, and the wins table. `evening` is the service's answer
 * (`/v1/sheets/{id}/evening`, `/v1/matches/{id}/evening`); the score sheet and the hosted match
 * both draw it here. Whether there is an evening to show is the caller's to say.
 */
export function eveningCard(evening, { currentId, gameTitle: title = gameTitle } = {}) {
  const outcome = (item) => {
    if (item.status === 'abandoned') return 'given up';
    if (item.status !== 'finished' && item.kind === 'hosted') return 'being played';
    if (item.status !== 'finished') return `playing, ${item.rounds} round${item.rounds === 1 ? '' : 's'} so far`;
    const winners = (item.winners || []).map((seat) => item.players[seat]);
    return `${joinNames(winners)} ${winners.length > 1 ? 'shared the win' : 'won'}`;
  };
  const items = evening.sheets || [];
  const played = items.filter((item) => item.status === 'finished').length;
  return h('section', { class: 'card evening', 'aria-labelledby': 'evening-title' },
    h('h2', { id: 'evening-title' }, 'This evening'),
    h('p', {}, `${played} game${played === 1 ? '' : 's'} played${items.length > played ? `, ${items.length - played} more started` : ''}.`),
    h('ol', { class: 'games' }, items.map((item, index) => h('li', {},
      item.id === currentId
        ? h('strong', {}, `Game ${index + 1} (this one), ${title(item.game)}: `)
        : h('a', { href: item.kind === 'hosted' ? `#match=${item.id}` : `#sheet=${item.id}` },
          `Game ${index + 1}, ${title(item.game)}${item.kind === 'hosted' ? ' (dealt by the service)' : ''}`),
      item.id === currentId ? '' : ': ',
      outcome(item)))),
    (evening.players || []).length
      ? h('table', { class: 'evening-wins' },
        h('caption', {}, 'Wins this evening'),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col', class: 'number' }, 'Games'), h('th', { scope: 'col', class: 'number' }, 'Wins'))),
        h('tbody', {}, [...evening.players].sort((a, b) => b.wins - a.wins).map((player) => h('tr', {},
          h('th', { scope: 'row' }, player.name),
          h('td', { class: 'number' }, player.sheets),
          h('td', { class: 'number' }, player.wins)))))
      : null);
}

function standingsTable(sheet, onRename) {
  const order = sheet.players.map((player) => player.seat)
    .sort((a, b) => sheet.standings.ranks[a] - sheet.standings.ranks[b] || a - b);
  const finished = sheet.status === 'finished';
  // In a region that scrolls sideways, so large text never widens the page.
  return h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'Standings table (scrolls sideways)' }, h('table', { class: 'standings' },
    h('caption', {}, finished ? (sheet.finished_early ? 'Final standings (finished early)' : 'Final standings') : 'Standings'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Rank'), h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col', class: 'number' }, 'Total'))),
    h('tbody', {}, order.map((seat) => {
      const won = sheet.standings.winners.includes(seat);
      const name = sheet.players[seat].name;
      return h('tr', { class: won ? 'winner' : null },
        h('td', {}, sheet.standings.ranks[seat]),
        h('th', { scope: 'row' },
          onRename
            ? h('button', { type: 'button', class: 'rename', onclick: () => onRename(seat) }, name, h('span', { class: 'visually-hidden' }, ' (rename)'))
            : name,
          won ? h('span', { class: 'badge' }, ' winner') : null),
        h('td', { class: 'number' }, formatNumber(sheet.standings.totals[seat])));
    }))));
}

function leaderSentence(sheet) {
  const { standings, players } = sheet;
  if (sheet.status === 'abandoned') return 'This sheet was given up.';
  if (sheet.status === 'finished') {
    const winners = standings.winners.map((seat) => players[seat].name);
    return `Game over: ${joinNames(winners)} ${winners.length > 1 ? 'share the win' : 'wins'}.`;
  }
  if (sheet.rounds.length === 0) return 'No rounds yet.';
  const leaders = players.filter((player) => standings.ranks[player.seat] === 1);
  const total = formatNumber(standings.totals[leaders[0].seat]);
  return `After round ${sheet.rounds.length}: ${joinNames(leaders.map((player) => player.name))} ${leaders.length > 1 ? 'lead together' : 'leads'} with ${total}.`;
}

/** A small in-page question: a heading, words, and its buttons; focus moves to the heading. */
function panel(title, ...children) {
  const heading = h('h3', { tabindex: -1 }, title);
  const element = h('div', { class: 'panel', role: 'group', 'aria-label': title }, heading, ...children);
  return { element, focus: () => heading.focus() };
}

const UNDO_REASONS = ['Entered by mistake', 'Typed on the wrong sheet', 'Entered twice', 'The wrong player won'];

export function sheetView(main, id) {
  let token = sheetToken(id);
  const status = h('p', { class: 'status', role: 'status' });
  const target = h('p', { class: 'target' });
  const againSlot = h('div');
  const renameSlot = h('div');
  const standingsSlot = h('div');
  const pendingSlot = h('div');
  const roundsSlot = h('section', { class: 'card', 'aria-labelledby': 'rounds-title' });
  const historySlot = h('section', { class: 'card', 'aria-labelledby': 'history-title' });
  const entrySlot = h('div');
  const controlsSlot = h('div');
  const eveningSlot = h('div');
  const shareSlot = h('div');
  const heading = h('h1', { tabindex: -1 }, 'Score sheet');
  const loadError = h('p', { class: 'error', role: 'alert', hidden: true });
  let sheet = null;
  let entryForm = null;
  let correcting = null; // the round being corrected
  let lastSummary = null;
  let evening = null;
  let sharedId = null;
  let stopped = false;

  replace(main, heading, loadError, status, target, againSlot, renameSlot, standingsSlot, entrySlot, pendingSlot,
    controlsSlot, roundsSlot, eveningSlot, historySlot, shareSlot);

  const context = () => ({ names: sheet ? names(sheet) : [], game: sheet ? sheet.game : null });
  const words = (error) => refusalWords(error, context());
  const knowsEvenings = () => Boolean(sheet) && 'rematch' in sheet;

  // The owner token was refused: another phone keeps the sheet now.
  function handedAway() {
    forgetSheet(id);
    markHandedOver(id);
    token = null;
    entryForm = null;
    correcting = null;
    replace(entrySlot);
    if (sheet) show(sheet, { force: true });
    announce('This sheet was handed to another phone. It shows here read-only.');
  }

  // --- rounds waiting to be sent ----------------------------------------------------------

  const pendingRounds = () => outbox(id).filter((item) => !item.body.corrects).length;
  let flushing = false;

  function renderPending() {
    const waiting = outbox(id);
    if (!waiting.length) { replace(pendingSlot); return; }
    const done = sheet ? sheet.rounds.length : 0;
    let next = done;
    replace(pendingSlot, h('section', { class: 'card pending', 'aria-labelledby': 'pending-title' },
      h('h2', { id: 'pending-title' }, 'Waiting to send'),
      h('p', {}, 'These rounds are kept on this phone and will be sent by themselves, once each, when the connection is back.'),
      h('ol', { class: 'plain queued' }, waiting.map((item) => {
        if (!item.body.corrects) next += 1;
        const title = item.body.corrects ? 'A correction' : `Round ${next}`;
        return h('li', { class: item.refusal ? 'refused' : null },
          h('p', {}, h('strong', {}, `${title}: `), sheet ? describeTally(sheet.game, item.body.tally, sheet.players) : ''),
          item.refusal
            ? [h('p', { class: 'error' }, `Not sent: ${item.refusal}`),
              h('button', { type: 'button', class: 'secondary', onclick: () => { dropQueued(id, item.key); renderPending(); flush(); announce(`${title} discarded.`); } }, `Discard ${title.toLowerCase()}`)]
            : h('p', { class: 'waiting' }, 'Waiting to send.'));
      }))));
  }

  // Rounds still waiting while the connection seems down are tried again every few seconds, not
  // only when the browser says it is back online (it may say so before a request can get
  // through) or when the sheet's stream comes back (which may wait longer).
  const RETRY_MS = 5000;
  let retry = null;
  async function flush() {
    if (flushing || !token || stopped) return;
    flushing = true;
    clearTimeout(retry);
    try {
      for (const item of outbox(id)) {
        if (item.refusal) break;
        try {
          const updated = await post(`/v1/sheets/${id}/entries`, item.body, { token, idempotencyKey: item.key });
          dropQueued(id, item.key);
          show(updated);
          announce(`A waiting round was sent. ${leaderSentence(sheet)}`);
        } catch (error) {
          if (isOffline(error)) { retry = setTimeout(flush, RETRY_MS); break; }
          if (isTokenRefused(error)) { handedAway(); break; }
          updateQueued(id, item.key, { refusal: words(error) });
          announce(`A waiting round was not accepted: ${words(error)}`);
          break;
        }
      }
    } finally {
      flushing = false;
      renderPending();
      if (entryForm) entryForm.setMode();
    }
  }
  const onOnline = () => flush();
  window.addEventListener('online', onOnline);

  // --- the entry form -----------------------------------------------------------------------

  function buildEntryForm() {
    const players = sheet.players;
    const round = roundForm(sheet.game, players, sheet.options);
    const note = h('input', { type: 'text', name: 'note', maxlength: 200, autocomplete: 'off' });
    const formError = h('p', { class: 'error', tabindex: -1, hidden: true, role: 'alert' });
    const legend = h('h2', { id: uid('entry') });
    // What this game's round asks for, in a line (Lucky Luau's one round is the whole game).
    const hint = round.note ? h('p', { class: 'hint' }, round.note) : null;
    const cancel = h('button', { type: 'button', class: 'secondary', hidden: true }, 'Cancel the correction');
    const submit = h('button', { type: 'submit' }, 'Save the round');
    // A Lucky Luau table types whole leis: let them see the service's breakdown before saving.
    const preview = sheet.game === 'lucky-luau' ? h('div', { class: 'preview', 'aria-live': 'polite' }) : null;
    const check = preview ? h('button', { type: 'button', class: 'secondary' }, 'Score without saving') : null;
    const form = h('form', { class: 'card entry', 'aria-labelledby': legend.id },
      legend, hint, formError, round.element, field('Note (optional)', note, 'Anything to remember, or why a round changed ("bells, not jacks")'), submit, check, cancel, preview);

    // A refusal about a seat or a field goes there; one about the whole round goes at the top.
    function place(error) {
      if (!error.problem) return error.control || null;
      const where = placeOf(error.problem);
      // The round's form knows more than the problem says (which lei the live score refuses):
      // it is asked even about a problem with no seat or field, and answers null if none fits.
      const params = { ...(error.problem.params || {}) };
      if (where.seat != null) params.seat = where.seat;
      if (where.field) params[where.field] = params[where.field] ?? true;
      return round.fieldFor(params) || null;
    }

    if (check) {
      check.addEventListener('click', async () => {
        clearFieldErrors(form);
        formError.hidden = true;
        try {
          const tally = round.read();
          const reply = await post(`/v1/games/${sheet.game}/tally`, { players: players.length, options: sheet.options, rounds: [tally] });
          replace(preview, h('h3', {}, 'Not saved yet'), roundBreakdown(sheet.game, reply.rounds[0], players));
        } catch (error) {
          replace(preview);
          showRefusal(error, { control: place(error), slot: formError, context: context() });
        }
      });
    }

    function setMode() {
      if (correcting) {
        legend.textContent = `Correct round ${correcting.round}`;
        submit.textContent = `Save the correction of round ${correcting.round}`;
        cancel.hidden = false;
      } else {
        // Lucky Luau's one round is the whole game: say so rather than "Round 1".
        legend.textContent = sheet.game === 'lucky-luau' && sheet.rounds.length + pendingRounds() === 0
          ? 'The whole game: everyone’s leis'
          : `Round ${sheet.rounds.length + pendingRounds() + 1}`;
        submit.textContent = 'Save the round';
        cancel.hidden = true;
      }
    }

    function cleared() {
      correcting = null;
      form.reset();
      round.fill({});
      if (preview) replace(preview);
    }

    cancel.addEventListener('click', () => {
      cleared();
      setMode();
      round.element.querySelector('select, input, button').focus();
    });

    function keepForLater(body) {
      queueRound(id, body);
      cleared();
      renderPending();
      setMode();
      announce('No connection: the round is kept on this phone, waiting to send.');
      round.element.querySelector('select, input, button').focus();
    }

    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      clearFieldErrors(form);
      formError.hidden = true;
      let tally;
      try {
        tally = round.read();
      } catch (error) {
        showRefusal(error, { control: error.control, slot: formError, context: context() });
        return;
      }
      const body = { tally };
      if (note.value.trim()) body.note = note.value.trim();
      if (correcting) body.corrects = correcting.entry;
      // Offline, or with rounds already waiting: this one waits behind them, in order.
      if (!navigator.onLine || outbox(id).length) {
        keepForLater(body);
        flush();
        return;
      }
      submit.disabled = true;
      try {
        const updated = await post(`/v1/sheets/${id}/entries`, { ...body, expected_version: sheet.version }, { token });
        const wasCorrection = Boolean(correcting);
        cleared();
        show(updated);
        setMode();
        announce(`${wasCorrection ? 'Correction saved' : 'Round saved'}. ${leaderSentence(updated)}`);
        if (updated.status !== 'finished') round.element.querySelector('select, input, button').focus();
        else heading.focus();
      } catch (error) {
        if (isOffline(error)) { keepForLater(body); return; }
        if (isTokenRefused(error)) { handedAway(); return; }
        const stale = error.problem && error.problem.code === 'stale_version';
        showRefusal(error, { control: stale ? null : place(error), slot: formError, context: context() });
        if (stale) refresh();
      } finally {
        submit.disabled = false;
      }
    });

    return {
      element: form,
      setMode,
      startCorrection(sheetRound) {
        correcting = sheetRound;
        const entry = sheet.entries.find((candidate) => candidate.seq === sheetRound.entry);
        if (entry) round.fill(entry.tally);
        setMode();
        replace(entrySlot, form);
        form.scrollIntoView({ block: 'start' });
        round.element.querySelector('select, input, button').focus();
      },
    };
  }

  // --- owner controls: undo, rename, finish early, give up, play again, hand over ---------------

  async function ownerWrite(method, path, body, errorSlot) {
    try {
      const reply = await api(method, path, { body, token });
      return reply.body;
    } catch (error) {
      if (isTokenRefused(error)) { handedAway(); return null; }
      if (error.problem && error.problem.code === 'stale_version') refresh();
      errorSlot.textContent = words(error);
      errorSlot.hidden = false;
      errorSlot.focus();
      announce(words(error));
      return null;
    }
  }

  const panelError = () => h('p', { class: 'error', tabindex: -1, hidden: true, role: 'alert' });
  let panelSlot = h('div');
  // The panel open now: it stays open while the sheet changes under it (a round the other phone
  // saved, say), until the person closes it.
  let openedPanel = null;

  function openPanel(built) {
    openedPanel = built.element;
    replace(panelSlot, built.element);
    built.focus();
  }
  function closePanel(focusTarget) {
    openedPanel = null;
    replace(panelSlot);
    if (focusTarget) focusTarget.focus();
  }

  function undoPanel(opener) {
    const last = sheet.rounds[sheet.rounds.length - 1];
    const error = panelError();
    const group = uid('why');
    const radios = UNDO_REASONS.map((reason) => h('label', { class: 'choice' },
      h('input', { type: 'radio', name: group, value: reason }), ` ${reason}`));
    const own = h('input', { type: 'text', name: 'why', maxlength: 200, autocomplete: 'off' });
    const built = panel(`Take round ${last.round} away?`,
      h('p', {}, 'The sheet keeps a note of why, so everyone can see what changed.'),
      error,
      h('fieldset', {}, h('legend', {}, 'Why?'), radios),
      field('Or say why in your own words', own),
      h('p', { class: 'buttons' },
        h('button', {
          type: 'button',
          onclick: async () => {
            const chosen = radios.map((label) => label.querySelector('input')).find((input) => input.checked);
            const note = own.value.trim() || (chosen && chosen.value) || '';
            error.hidden = true;
            if (!note) {
              error.textContent = 'Choose a reason, or say why in your own words.';
              error.hidden = false;
              error.focus();
              return;
            }
            const updated = await ownerWrite('POST', `/v1/sheets/${id}/remove-last-round`, { note, expected_version: sheet.version }, error);
            if (!updated) return;
            closePanel();
            show(updated);
            announce(`Round ${last.round} taken away. ${leaderSentence(updated)}`);
            heading.focus();
          },
        }, `Take round ${last.round} away`),
        h('button', { type: 'button', class: 'secondary', onclick: () => closePanel(opener) }, 'Keep it')));
    openPanel(built);
  }

  function finishPanel(opener) {
    const error = panelError();
    const leaders = sheet.players.filter((player) => sheet.standings.ranks[player.seat] === 1).map((player) => player.name);
    const finish = async (again) => {
      const updated = await ownerWrite('POST', `/v1/sheets/${id}/finish`, { expected_version: sheet.version }, error);
      if (!updated) return;
      closePanel();
      show(updated);
      announce(leaderSentence(updated));
      if (again) playAgain(againError);
      else heading.focus();
    };
    openPanel(panel('Finish the game now?',
      h('p', {}, `The standings so far become final: ${joinNames(leaders)} ${leaders.length > 1 ? 'share the win' : 'wins'}.`),
      error,
      h('p', { class: 'buttons' },
        h('button', { type: 'button', onclick: () => finish(false) }, 'Finish now'),
        knowsEvenings() ? h('button', { type: 'button', onclick: () => finish(true) }, 'Finish now and play again') : null,
        h('button', { type: 'button', class: 'secondary', onclick: () => closePanel(opener) }, 'Keep playing'))));
  }

  function abandonPanel(opener) {
    const error = panelError();
    openPanel(panel('Give up this sheet?',
      h('p', {}, 'Nobody wins it. It stays on the service, marked as given up, and can be read but no longer played.'),
      error,
      h('p', { class: 'buttons' },
        h('button', {
          type: 'button',
          class: 'danger',
          onclick: async () => {
            const updated = await ownerWrite('POST', `/v1/sheets/${id}/abandon`, undefined, error);
            if (!updated) return;
            closePanel();
            show(updated.sheet || updated);
            announce('The sheet was given up.');
            heading.focus();
          },
        }, 'Give it up'),
        h('button', { type: 'button', class: 'secondary', onclick: () => closePanel(opener) }, 'Keep playing'))));
  }

  function handoverPanel(opener) {
    const error = panelError();
    const slot = h('div');
    const cancel = h('p', {}, h('button', { type: 'button', class: 'secondary', onclick: () => closePanel(opener) }, 'Cancel'));
    const start = h('button', {
      type: 'button',
      onclick: async () => {
        const reply = await ownerWrite('POST', `/v1/sheets/${id}/owner-token`, undefined, error);
        if (!reply) return;
        // The old token stopped working: keep the new one until the other phone has it.
        token = reply.owner_token;
        setSheetToken(id, token, sheet);
        const link = handoverLink(id, token);
        const canvas = h('canvas', { role: 'img', 'aria-label': 'QR code that hands this sheet to another phone' });
        start.hidden = true;
        cancel.hidden = true;
        replace(slot,
          h('p', {}, 'On the other phone, scan this code (or open the link). That phone then keeps the sheet.'),
          canvas,
          h('p', {}, h('a', { href: link, class: 'handover-link' }, 'The link that hands the sheet over')),
          h('p', { class: 'buttons' },
            h('button', {
              type: 'button',
              onclick: () => {
                closePanel();
                handedAway();
                heading.focus();
              },
            }, 'The other phone has it'),
            h('button', { type: 'button', class: 'secondary', onclick: () => closePanel(opener) }, 'Keep it on this phone')));
        drawQr(canvas, link);
        announce('Show this code to the other phone.');
      },
    }, 'Show the code for the other phone');
    openPanel(panel('Hand the sheet to another phone',
      h('p', {}, 'The other phone will keep the score; this one will only show it.'),
      error, start, slot, cancel));
  }

  function renamePanel(seat) {
    const player = sheet.players[seat];
    const input = h('input', { type: 'text', name: 'new-name', maxlength: 64, autocomplete: 'off', value: player.name });
    const form = h('form', { class: 'card panel', 'aria-labelledby': 'rename-title' },
      h('h2', { id: 'rename-title', tabindex: -1 }, `Rename ${player.name}`),
      field('New name', input),
      h('p', { class: 'buttons' },
        h('button', { type: 'submit' }, 'Save the name'),
        h('button', { type: 'button', class: 'secondary', onclick: () => { replace(renameSlot); heading.focus(); } }, 'Cancel')));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      clearFieldErrors(form);
      const name = input.value.trim();
      if (!name) { showFieldError(input, 'Type a name.'); return; }
      try {
        const reply = await api('PATCH', `/v1/sheets/${id}/seats/${seat}`, { body: { name, expected_version: sheet.version }, token });
        replace(renameSlot);
        // The names this phone offers follow the rename: the new name where the old one was.
        renameInRoster(player.name, name);
        show(reply.body);
        announce(`${player.name} is now ${name}.`);
        heading.focus();
      } catch (error) {
        if (isTokenRefused(error)) { replace(renameSlot); handedAway(); return; }
        showFieldError(input, words(error));
        announce(words(error));
      }
    });
    replace(renameSlot, form);
    input.focus();
    input.select();
  }

  // Where a refused "play again" says why, beside its button (or above the standings).
  const againError = h('p', { class: 'error', tabindex: -1, hidden: true, role: 'alert' });

  async function playAgain(errorSlot) {
    if (!errorSlot.isConnected) replace(againSlot, errorSlot);
    let created;
    try {
      created = await post(`/v1/sheets/${id}/rematch`, undefined, { token });
    } catch (error) {
      const problem = error.problem || {};
      if (problem.code === 'rematch_exists' && problem.params && problem.params.rematch) {
        location.hash = `sheet=${problem.params.rematch}`;
        return;
      }
      if (isTokenRefused(error)) { handedAway(); return; }
      errorSlot.textContent = words(error);
      errorSlot.hidden = false;
      errorSlot.focus();
      announce(words(error));
      return;
    }
    // The next game belongs where this one does (the service keeps an evening in one space).
    rememberSheet(created.sheet, created.owner_token, sheetHousehold(id) ?? null);
    rememberNames(names(created.sheet));
    announce(`A new game of ${gameTitle(created.sheet.game)} with ${joinNames(names(created.sheet))}.`);
    location.hash = `sheet=${created.sheet.id}`;
  }

  function renderAgain() {
    const over = sheet.status === 'finished' || sheet.status === 'abandoned';
    if (!over || !knowsEvenings()) { replace(againSlot); return; }
    if (sheet.rematch) {
      replace(againSlot, h('p', { class: 'again' }, h('a', { class: 'button', href: `#sheet=${sheet.rematch}` }, 'Go to the next game')));
      return;
    }
    if (!token) { replace(againSlot); return; }
    replace(againSlot, h('div', { class: 'again' },
      againError,
      h('button', { type: 'button', class: 'big', onclick: () => playAgain(againError) }, 'Play again with the same players')));
  }

  function renderControls() {
    if (!token) { replace(controlsSlot); panelSlot = h('div'); openedPanel = null; return; }
    const open = sheet.status === 'in_progress';
    const game = (catalogue || []).find((candidate) => candidate.slug === sheet.game);
    const canFinish = open && sheet.rounds.length > 0 && game && game.sheet_finishes_early;
    const buttons = [];
    const add = (label, opener, cls = 'secondary') => {
      const button = h('button', { type: 'button', class: cls, onclick: () => opener(button) }, label);
      buttons.push(button);
    };
    if (sheet.status !== 'abandoned' && sheet.rounds.length > 0) add('Undo the last round', undoPanel);
    if (canFinish) add('Finish early', finishPanel);
    if (knowsEvenings()) add('Hand the sheet to another phone', handoverPanel);
    if (open) add('Give up this sheet', abandonPanel, 'secondary danger');
    panelSlot = h('div', {}, openedPanel);
    replace(controlsSlot, h('section', { class: 'card controls', 'aria-labelledby': 'controls-title' },
      h('h2', { id: 'controls-title' }, 'Change the sheet'),
      h('p', { class: 'hint' }, 'To rename a player, tap their name in the standings.'),
      h('div', { class: 'buttons' }, buttons),
      panelSlot));
  }

  // --- the rest of the sheet ------------------------------------------------------------------

  function renderRounds() {
    const players = sheet.players;
    const imported = importEntry(sheet);
    let none = null;
    if (imported) none = h('p', {}, `Played on ${dateOf(sheet.finished_at || sheet.created_at)} and brought in from BG Stats: only the final scores came with it, not the rounds.`);
    else if (sheet.rounds.length === 0) none = h('p', { class: 'muted' }, 'No rounds yet.');
    replace(roundsSlot,
      h('h2', { id: 'rounds-title' }, 'Rounds'),
      none,
      h('ol', { class: 'rounds' }, sheet.rounds.map((round) => h('li', { class: 'round' },
        h('h3', {}, `Round ${round.round}`),
        h('p', { class: 'points' }, players.map((player) => `${player.name} ${formatNumber(round.points[player.seat])}`).join(' · ')),
        roundBreakdown(sheet.game, round.score, players),
        token && entryForm && sheet.status !== 'abandoned' ? h('button', { type: 'button', class: 'secondary', onclick: () => entryForm.startCorrection(round) }, `Correct round ${round.round}`) : null))));
  }

  // A round in the game's terms, or what the owner mended or decided (removal, rename, finish).
  function describeEntry(entry, players) {
    const kind = entry.kind || 'round';
    const what = {
      removal: () => `round ${entry.round} taken away (entry #${entry.corrects})`,
      rename: () => `${entry.renamed.old_name} renamed ${entry.renamed.new_name}`,
      finish: () => `finished early after ${amount(entry.round, 'round')}`,
      import: () => 'brought in from BG Stats, with the final scores',
    }[kind];
    return what
      ? [h('strong', {}, `#${entry.seq}: `), what()]
      : [h('strong', {}, `#${entry.seq}, round ${entry.round}: `), describeTally(sheet.game, entry.tally, players)];
  }

  function renderHistory() {
    const players = sheet.players;
    replace(historySlot,
      h('h2', { id: 'history-title' }, 'Every entry'),
      sheet.entries.length === 0 ? h('p', { class: 'muted' }, 'Nothing yet.') : null,
      h('ol', { class: 'entries' }, sheet.entries.map((entry) => h('li', { class: entry.superseded_by ? 'superseded' : null },
        h('p', {}, ...describeEntry(entry, players)),
        entry.corrects && entry.kind !== 'removal' ? h('p', {}, `Corrects entry #${entry.corrects}`) : null,
        entry.note ? h('p', { class: 'note' }, `Note: ${entry.note}`) : null,
        entry.superseded_by ? h('p', { class: 'muted' }, `Replaced by entry #${entry.superseded_by}`) : null,
        h('p', { class: 'muted' }, formatTime(entry.at))))));
  }

  function renderEvening() {
    // One game still being played is no evening yet: the summary starts with a finished game.
    // A play brought in from BG Stats was played on another day, alone: no evening here.
    const lone = evening && evening.sheets && evening.sheets.length === 1
      && (evening.sheets[0].status === 'in_progress' || importEntry(sheet));
    if (!evening || !evening.sheets || evening.sheets.length === 0 || lone) { replace(eveningSlot); return; }
    replace(eveningSlot, eveningCard(evening, { currentId: id }));
  }

  async function loadEvening() {
    if (!knowsEvenings()) return;
    try {
      evening = await get(`/v1/sheets/${id}/evening`);
    } catch {
      // The sheet itself still shows; the summary waits for the next change.
      if (!sharedId && !stopped) renderShare(id);
      return;
    }
    if (stopped) return;
    renderEvening();
    // The link of the evening is its play-again chain's first sheet: in a household the evening
    // may begin with another game, even a hosted match, which the shared link does not follow.
    const first = evening.first || id;
    if (first !== sharedId) renderShare(first);
  }

  function renderShare(shareId) {
    sharedId = shareId;
    let link = shareLink(shareId);
    const canvas = h('canvas', { role: 'img', 'aria-label': 'QR code of the read-only link for the evening' });
    const anchor = h('a', { href: link, class: 'share-link' }, link);
    // The code and the link again, for the network address the host typed (or no longer).
    const redraw = () => {
      link = shareLink(shareId);
      anchor.href = link;
      anchor.textContent = link;
      drawQr(canvas, link);
    };
    const copy = h('button', { type: 'button', class: 'secondary' }, 'Copy the link');
    const copied = h('span', { role: 'status' });
    copy.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(link);
        copied.textContent = ' Copied.';
      } catch {
        copied.textContent = ' Select the link and copy it.';
      }
    });
    replace(shareSlot, h('section', { class: 'card', 'aria-labelledby': 'share-title' },
      h('h2', { id: 'share-title' }, 'Show the table'),
      h('p', {}, 'Scan or open this link on another phone: it shows the score read-only, follows every change, and moves on by itself to the next game of the evening. The code stays the same all evening.'),
      householdPart(shareId, 'reader') ? h('p', { class: 'hint' }, 'The sheet is your household’s: the other phone joins it as a phone that only follows, and sees its games too.') : null,
      canvas,
      h('p', {}, anchor),
      // 127.0.0.1 on another phone is that phone: said, with a field for the network address.
      phonesCannotReach(redraw, { level: 3 }),
      h('p', {}, copy, copied),
      h('h2', {}, 'Export'),
      h('p', { class: 'buttons' },
        keyedDownload(h('a', { class: 'button secondary', href: `/v1/sheets/${id}/export`, download: `sheet-${id}.json` }, 'Export (JSON)')),
        keyedDownload(h('a', { class: 'button secondary', href: `/v1/sheets/${id}/bgstats`, download: `sheet-${id}-bgstats.json` }, 'BG Stats'))),
      token ? h('p', {}, h('button', {
        type: 'button',
        class: 'link',
        onclick: () => {
          if (window.confirm('Forget this sheet on this phone? It stays on the service, read-only.')) {
            forgetSheet(id);
            location.hash = '';
          }
        },
      }, 'Forget this sheet on this phone')) : null));
    drawQr(canvas, link);
  }

  function ownerSentence() {
    if (token) return 'You keep this sheet.';
    if (handedOver(id)) return 'You handed this sheet to another phone; here it is read-only.';
    return 'Read-only.';
  }

  /** Shows `next`: the sheet as the service answered, or (`copy`) as this phone last kept it. */
  function show(next, { force = false, copy = false } = {}) {
    if (stopped) return;
    const first = sheet === null;
    // An answer repeated for a retried write may be older than what is shown.
    if (!first && !force && next.version < sheet.version) return;
    const changed = first || force || next.version !== sheet.version || next.rematch !== sheet.rematch;
    sheet = next;
    if (!copy) {
      keepSheetCopy(sheet);
      // The phone's list of its sheets names the players as the sheet now does (after a rename).
      if (token) keepSheetPlayers(sheet);
    }
    // A phone that only watches follows the evening to its current sheet, by itself.
    if (!token && sheet.rematch) {
      announce(`The table started the next game. ${first ? '' : 'This page follows it.'}`);
      location.hash = `sheet=${sheet.rematch}`;
      return;
    }
    heading.textContent = `${gameTitle(sheet.game)}: ${names(sheet).join(', ')}`;
    status.textContent = `${ownerSentence()} ${leaderSentence(sheet)}`;
    target.textContent = sheetTarget(sheet.game, sheet.options, sheet.players.length);
    replace(standingsSlot, standingsTable(sheet, token ? renamePanel : null));
    const playing = sheet.status === 'in_progress';
    if (token && playing) {
      if (!entryForm) {
        entryForm = buildEntryForm();
        replace(entrySlot, entryForm.element);
      } else if (!entrySlot.contains(entryForm.element)) replace(entrySlot, entryForm.element);
      entryForm.setMode();
    } else if (token && sheet.status === 'finished' && !correcting) {
      // Corrections stay possible on a finished sheet; the form appears when one is asked for.
      if (!entryForm) entryForm = buildEntryForm();
      replace(entrySlot);
    } else if (!token || sheet.status === 'abandoned') {
      replace(entrySlot);
    }
    if (correcting && entryForm) replace(entrySlot, entryForm.element);
    renderAgain();
    if (changed) {
      renderControls();
      renderRounds();
      renderHistory();
      renderPending();
    }
    if (first) {
      // A later sheet of the evening shares the first one's link: it comes with the evening.
      if (!sheet.rematch_of) renderShare(id);
      // A sheet received from another phone: this phone now lists it among its own.
      if (token) setSheetToken(id, token, sheet);
      flush();
    }
    if (changed) loadEvening();
    const summary = leaderSentence(sheet);
    if (!first && !token && summary !== lastSummary) announce(summary);
    lastSummary = summary;
  }

  async function refresh() {
    try { show(await get(`/v1/sheets/${id}`)); } catch { /* the follower reports errors */ }
  }

  // Opened from a shared link, the catalogue (for the game's title) may arrive after the sheet.
  games().then(() => {
    if (sheet) {
      heading.textContent = `${gameTitle(sheet.game)}: ${names(sheet).join(', ')}`;
      renderControls();
      renderEvening();
    }
  }).catch(() => null);

  // Until the service answers (a reload while offline), the sheet as this phone last saw it, with
  // the rounds waiting to be sent and the form for the next one.
  let fresh = false;
  const kept = token ? sheetCopy(id) : null;
  if (kept) show(kept.sheet, { copy: true });

  function offlineWords() {
    if (!sheet) return 'No connection, and this phone has no copy of this sheet yet. It shows as soon as the connection is back.';
    const old = fresh ? '' : ` This is the sheet as this phone last saw it (last change ${formatTime(sheet.updated_at)}).`;
    return `No connection.${old} What you save is kept on this phone and sent when the connection is back.`;
  }

  const stopFollowing = follow(`/v1/sheets/${id}`, {
    streamPath: `/v1/sheets/${id}/stream`,
    onData(next) {
      fresh = true;
      loadError.hidden = true;
      if (!sheet || next.version !== sheet.version || next.rematch !== sheet.rematch) show(next);
      if (outbox(id).length) flush();
    },
    onError(error) {
      loadError.textContent = isOffline(error) ? offlineWords() : words(error);
      loadError.hidden = false;
    },
    // A finished sheet still watches for the next game of the evening, only less often.
    quiet: () => sheet && sheet.status !== 'in_progress',
  });
  return () => {
    stopped = true;
    window.removeEventListener('online', onOnline);
    clearTimeout(retry);
    stopFollowing();
  };
}
