// Score sheets: starting one, keeping it (owner), and showing it read-only to the rest of the
// table, updating as entries arrive.

import { get, post, follow, Refusal } from './api.js';
import { h, replace, field, uid, showFieldError, clearFieldErrors, announce, formatNumber, formatTime, words } from './dom.js';
import { roundForm, describeTally, roundBreakdown } from './rounds.js';
import { optionsEditor } from './options.js';
import { drawQr } from './qr.js';
import { rememberSheet, sheetToken, mySheets, forgetSheet } from './store.js';

let catalogue = null;
export async function games() {
  catalogue ||= await get('/v1/games');
  return catalogue;
}

export const gameTitle = (slug) => ((catalogue || []).find((game) => game.slug === slug) || {}).title || slug;

/** Shows a refusal next to `control` (or in `fallback` when no control fits). */
export function showRefusal(error, control, fallback) {
  const message = error instanceof Refusal ? error.message : String(error.message || error);
  if (control) showFieldError(control, message);
  else {
    fallback.textContent = message;
    fallback.hidden = false;
    fallback.focus();
  }
  announce(message);
}

// --- home: a new sheet and this phone's sheets ------------------------------------------------

export async function homeView(main) {
  const catalogueList = await games();
  const gameSelect = h('select', { name: 'game' }, catalogueList.map((game) => h('option', { value: game.slug }, `${game.title} (${game.min_players}–${game.max_players} players)`)));
  const optionsSlot = h('div');
  const playerList = h('ol', { class: 'players' });
  const addButton = h('button', { type: 'button', class: 'secondary' }, 'Add a player');
  const formError = h('p', { class: 'error', tabindex: -1, hidden: true, role: 'alert' });
  let options = null;

  const currentGame = () => catalogueList.find((game) => game.slug === gameSelect.value);
  const playerInputs = () => [...playerList.querySelectorAll('input')];

  function addPlayer(name = '') {
    const index = playerList.children.length + 1;
    const input = h('input', { type: 'text', name: 'player', autocomplete: 'off', maxlength: 64, value: name });
    const remove = h('button', { type: 'button', class: 'link', 'aria-label': `Remove player ${index}` }, 'Remove');
    const item = h('li', {}, field(`Player ${index}`, input), remove);
    remove.addEventListener('click', () => {
      item.remove();
      relabel();
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

  function chooseGame() {
    const game = currentGame();
    options = optionsEditor(game);
    replace(optionsSlot, options.element);
    while (playerList.children.length < game.min_players) addPlayer();
    while (playerList.children.length > game.max_players) playerList.lastChild.remove();
    relabel();
  }

  gameSelect.addEventListener('change', chooseGame);
  addButton.addEventListener('click', () => addPlayer().focus());

  async function start(event) {
    event.preventDefault();
    clearFieldErrors(form);
    formError.hidden = true;
    const inputs = playerInputs();
    const body = {
      game: gameSelect.value,
      players: inputs.map((input) => ({ name: input.value.trim() })),
      options: options.read(),
    };
    const empty = inputs.find((input) => !input.value.trim());
    if (empty) {
      showRefusal(new Error('Every player needs a name.'), empty, formError);
      return;
    }
    try {
      const created = await post('/v1/sheets', body);
      rememberSheet(created.sheet, created.owner_token);
      location.hash = `sheet=${created.sheet.id}`;
    } catch (error) {
      const params = (error.problem && error.problem.params) || {};
      let control = null;
      if (params.option) control = options.control(params.option);
      else if (Number.isInteger(params.seat)) control = inputs[params.seat];
      else if (params.name) control = inputs.find((input) => input.value.trim().toLowerCase() === String(params.name).toLowerCase());
      if (control && control.closest('details')) control.closest('details').open = true;
      showRefusal(error, control, formError);
    }
  }

  const form = h('form', { class: 'card', onsubmit: start, 'aria-labelledby': 'new-sheet' },
    h('h2', { id: 'new-sheet' }, 'New score sheet'),
    field('Game', gameSelect),
    optionsSlot,
    h('fieldset', {}, h('legend', {}, 'Players, clockwise'), playerList, addButton),
    formError,
    h('button', { type: 'submit' }, 'Start the sheet'));
  chooseGame();

  const mine = mySheets();
  replace(main, 
    h('h1', { tabindex: -1 }, 'Keep score'),
    h('p', { class: 'lead' }, 'Play with your own cards and dice; the sheet does the sums, ranks and corrections.'),
    form,
    h('section', { class: 'card', 'aria-labelledby': 'my-sheets' },
      h('h2', { id: 'my-sheets' }, 'Sheets kept on this phone'),
      mine.length
        ? h('ul', { class: 'plain' }, mine.map((sheet) => h('li', {},
          h('a', { href: `#sheet=${sheet.id}` }, `${gameTitle(sheet.game)}: ${sheet.players.join(', ')}`),
          h('span', { class: 'muted' }, ` ${formatTime(sheet.created)}`))))
        : h('p', { class: 'muted' }, 'None yet.')));
}

// --- one sheet ---------------------------------------------------------------------------------

function shareLink(id) {
  // Read-only: only the sheet id, never the owner token.
  return `${location.origin}/#sheet=${encodeURIComponent(id)}`;
}


function standingsTable(sheet) {
  const order = sheet.players.map((player) => player.seat)
    .sort((a, b) => sheet.standings.ranks[a] - sheet.standings.ranks[b] || a - b);
  const finished = sheet.status === 'finished';
  return h('table', { class: 'standings' },
    h('caption', {}, finished ? (sheet.finished_early ? 'Final standings (finished early)' : 'Final standings') : 'Standings'),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Rank'), h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col', class: 'number' }, 'Total'))),
    h('tbody', {}, order.map((seat) => {
      const won = sheet.standings.winners.includes(seat);
      return h('tr', { class: won ? 'winner' : null },
        h('td', {}, sheet.standings.ranks[seat]),
        h('th', { scope: 'row' }, sheet.players[seat].name, won ? h('span', { class: 'badge' }, ' winner') : null),
        h('td', { class: 'number' }, formatNumber(sheet.standings.totals[seat])));
    })));
}

function leaderSentence(sheet) {
  const { standings, players } = sheet;
  if (sheet.status === 'finished') {
    const names = standings.winners.map((seat) => players[seat].name).join(' and ');
    return `Game over: ${names} ${standings.winners.length > 1 ? 'share the win' : 'wins'}.`;
  }
  if (sheet.rounds.length === 0) return 'No rounds yet.';
  const leaders = players.filter((player) => standings.ranks[player.seat] === 1);
  const names = leaders.map((player) => player.name).join(' and ');
  const total = formatNumber(standings.totals[leaders[0].seat]);
  return `After round ${sheet.rounds.length}: ${names} ${leaders.length > 1 ? 'lead together' : 'leads'} with ${total}.`;
}

export function sheetView(main, id) {
  const token = sheetToken(id);
  const status = h('p', { class: 'status', role: 'status' });
  const standingsSlot = h('div');
  const roundsSlot = h('section', { class: 'card', 'aria-labelledby': 'rounds-title' });
  const historySlot = h('section', { class: 'card', 'aria-labelledby': 'history-title' });
  const entrySlot = h('div');
  const shareSlot = h('div');
  const heading = h('h1', { tabindex: -1 }, 'Score sheet');
  const loadError = h('p', { class: 'error', role: 'alert', hidden: true });
  let sheet = null;
  let entryForm = null;
  let correcting = null; // the round being corrected
  let lastSummary = null;

  replace(main, heading, loadError, status, standingsSlot, entrySlot, roundsSlot, historySlot, shareSlot);

  function buildEntryForm() {
    const players = sheet.players;
    const round = roundForm(sheet.game, players);
    const note = h('input', { type: 'text', name: 'note', maxlength: 200, autocomplete: 'off' });
    const formError = h('p', { class: 'error', tabindex: -1, hidden: true });
    const legend = h('h2', { id: uid('entry') });
    const cancel = h('button', { type: 'button', class: 'secondary', hidden: true }, 'Cancel the correction');
    const submit = h('button', { type: 'submit' }, 'Save the round');
    // A Lucky Luau table types whole leis: let them see the service's breakdown before saving.
    const preview = sheet.game === 'lucky-luau' ? h('div', { class: 'preview', 'aria-live': 'polite' }) : null;
    const check = preview ? h('button', { type: 'button', class: 'secondary' }, 'Score without saving') : null;
    const form = h('form', { class: 'card entry', 'aria-labelledby': legend.id },
      legend, round.element, field('Note (optional)', note, 'Anything to remember, or why a round changed ("bells, not jacks")'), formError, submit, check, cancel, preview);

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
          const params = (error.problem && error.problem.params) || {};
          showRefusal(error, error.control || round.fieldFor(params), formError);
        }
      });
    }

    function setMode() {
      if (correcting) {
        legend.textContent = `Correct round ${correcting.round}`;
        submit.textContent = `Save the correction of round ${correcting.round}`;
        cancel.hidden = false;
      } else {
        legend.textContent = `Round ${sheet.rounds.length + 1}`;
        submit.textContent = 'Save the round';
        cancel.hidden = true;
      }
    }

    cancel.addEventListener('click', () => {
      correcting = null;
      form.reset();
      round.fill({});
      setMode();
      round.element.querySelector('select, input').focus();
    });

    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      clearFieldErrors(form);
      formError.hidden = true;
      let tally;
      try {
        tally = round.read();
      } catch (error) {
        showRefusal(error, error.control, formError);
        return;
      }
      const body = { tally, expected_version: sheet.version };
      if (note.value.trim()) body.note = note.value.trim();
      if (correcting) body.corrects = correcting.entry;
      submit.disabled = true;
      try {
        const updated = await post(`/v1/sheets/${id}/entries`, body, { token });
        const wasCorrection = Boolean(correcting);
        correcting = null;
        form.reset();
        round.fill({});
        if (preview) replace(preview);
        show(updated);
        setMode();
        announce(`${wasCorrection ? 'Correction saved' : 'Round saved'}. ${leaderSentence(updated)}`);
        if (updated.status !== 'finished') round.element.querySelector('select, input').focus();
        else heading.focus();
      } catch (error) {
        const params = (error.problem && error.problem.params) || {};
        const control = error.problem && error.problem.code === 'stale_version' ? null : round.fieldFor(params);
        showRefusal(error, control, formError);
        if (error.problem && error.problem.code === 'stale_version') refresh();
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
        round.element.querySelector('select, input').focus();
      },
    };
  }

  function renderRounds() {
    const players = sheet.players;
    const owner = Boolean(token);
    replace(roundsSlot, 
      h('h2', { id: 'rounds-title' }, 'Rounds'),
      sheet.rounds.length === 0 ? h('p', { class: 'muted' }, 'No rounds yet.') : null,
      h('ol', { class: 'rounds' }, sheet.rounds.map((round) => h('li', { class: 'round' },
        h('h3', {}, `Round ${round.round}`),
        h('p', { class: 'points' }, players.map((player) => `${player.name} ${formatNumber(round.points[player.seat])}`).join(' · ')),
        roundBreakdown(sheet.game, round.score, players),
        owner && entryForm ? h('button', { type: 'button', class: 'secondary', onclick: () => entryForm.startCorrection(round) }, `Correct round ${round.round}`) : null))));
  }

  // A round in the game's terms, or what the owner mended or decided (removal, rename, finish).
  function describeEntry(entry, players) {
    const kind = entry.kind || 'round';
    const what = {
      removal: () => `round ${entry.round} taken away (entry #${entry.corrects})`,
      rename: () => `${entry.renamed.old_name} renamed ${entry.renamed.new_name}`,
      finish: () => `finished early after ${entry.round} round${entry.round === 1 ? '' : 's'}`,
    }[kind];
    return what
      ? [h('strong', {}, `#${entry.seq}: `), what()]
      : [h('strong', {}, `#${entry.seq}, round ${entry.round}: `), describeTally(sheet.game, entry.tally, players)];
  }

  function renderHistory() {
    const players = sheet.players;
    replace(historySlot, 
      h('h2', { id: 'history-title' }, 'Every entry'),
      h('ol', { class: 'entries' }, sheet.entries.map((entry) => h('li', { class: entry.superseded_by ? 'superseded' : null },
        h('p', {}, ...describeEntry(entry, players)),
        entry.corrects && entry.kind !== 'removal' ? h('p', {}, `Corrects entry #${entry.corrects}`) : null,
        entry.note ? h('p', { class: 'note' }, `Note: ${entry.note}`) : null,
        entry.superseded_by ? h('p', { class: 'muted' }, `Replaced by entry #${entry.superseded_by}`) : null,
        h('p', { class: 'muted' }, formatTime(entry.at))))));
  }

  function renderShare() {
    const link = shareLink(id);
    const canvas = h('canvas', { role: 'img', 'aria-label': 'QR code of the read-only link' });
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
      h('p', {}, 'Scan or open this link on another phone: it shows this sheet read-only and follows it as it changes.'),
      canvas,
      h('p', {}, h('a', { href: link, class: 'share-link' }, link)),
      // 127.0.0.1 on another phone is that phone: the page must be opened by the network address.
      ['localhost', '127.0.0.1', '[::1]'].includes(location.hostname)
        ? h('p', { class: 'hint' }, 'This address only works on this device. For other phones, open the page by this computer’s network address (start the service with BIND_ADDRESS=0.0.0.0:8080).')
        : null,
      h('p', {}, copy, copied),
      h('h2', {}, 'Export'),
      h('p', { class: 'buttons' },
        h('a', { class: 'button secondary', href: `/v1/sheets/${id}/export`, download: `sheet-${id}.json` }, 'Export (JSON)'),
        h('a', { class: 'button secondary', href: `/v1/sheets/${id}/bgstats`, download: `sheet-${id}-bgstats.json` }, 'BG Stats')),
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

  function show(next) {
    const first = sheet === null;
    sheet = next;
    heading.textContent = `${gameTitle(sheet.game)}: ${sheet.players.map((player) => player.name).join(', ')}`;
    status.textContent = `${token ? 'You keep this sheet.' : 'Read-only.'} ${leaderSentence(sheet)}`;
    replace(standingsSlot, standingsTable(sheet));
    if (token && sheet.status !== 'finished') {
      if (!entryForm) {
        entryForm = buildEntryForm();
        replace(entrySlot, entryForm.element);
      }
      entryForm.setMode();
    } else if (token && sheet.status === 'finished' && !correcting) {
      // Corrections stay possible on a finished sheet; the form appears when one is asked for.
      if (!entryForm) entryForm = buildEntryForm();
      replace(entrySlot);
    }
    if (correcting && entryForm) replace(entrySlot, entryForm.element);
    renderRounds();
    renderHistory();
    if (first) renderShare();
    const summary = leaderSentence(sheet);
    if (!first && !token && summary !== lastSummary) announce(summary);
    lastSummary = summary;
  }

  async function refresh() {
    try { show(await get(`/v1/sheets/${id}`)); } catch { /* the follower reports errors */ }
  }

  // Opened from a shared link, the catalogue (for the game's title) may arrive after the sheet.
  games().then(() => {
    if (sheet) heading.textContent = `${gameTitle(sheet.game)}: ${sheet.players.map((player) => player.name).join(', ')}`;
  }).catch(() => null);

  const stop = follow(`/v1/sheets/${id}`, {
    streamPath: `/v1/sheets/${id}/stream`,
    onData(next) {
      loadError.hidden = true;
      if (!sheet || next.version !== sheet.version) show(next);
    },
    onError(error) {
      loadError.textContent = error.message;
      loadError.hidden = false;
    },
    quiet: () => sheet && sheet.status === 'finished',
  });
  return stop;
}
