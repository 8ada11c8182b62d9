// Hosted matches: a spectator's view by id (the public table and the log), and a seat's view
// with its seat token, which can play the moves the service lists as legal.

import { get, post, follow } from './api.js';
import { h, replace, field, showFieldError, clearFieldErrors, announce, formatNumber, formatTime, words } from './dom.js';
import { games, gameTitle, showRefusal } from './sheet.js';
import { seatToken, rememberSeat, forgetSeat } from './store.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A value of the game's view or an event, as short text. */
function brief(value, names) {
  if (value === null || value === undefined) return '–';
  if (Array.isArray(value)) {
    // A list with one item per seat (hands, hand sizes, pools...) reads best by name.
    const perSeat = names.length > 1 && value.length === names.length
      && value.every((item) => item === null || Array.isArray(item) || typeof item === 'number');
    if (perSeat) return value.map((item, seat) => `${names[seat]}: ${brief(item, names)}`).join('; ');
    return value.length ? value.map((item) => brief(item, names)).join(', ') : 'none';
  }
  if (typeof value === 'object') {
    return Object.entries(value).map(([key, item]) => `${words(key)} ${key === 'seat' ? (names[item] ?? item) : brief(item, names)}`).join(', ');
  }
  return typeof value === 'number' ? formatNumber(value) : words(value);
}

/** "discard lemon", "take it", "play GO-7 on pile 2": the move's words, its flags when set. */
function describeMove(move, names = []) {
  const { type, ...rest } = move;
  const details = Object.entries(rest).flatMap(([key, value]) => {
    if (value === false || value === null) return [];
    if (value === true) return [words(key)];
    if (key === 'card') return [brief(value, names)];
    return [`${words(key)} ${key === 'seat' ? (names[value] ?? value) : brief(value, [])}`];
  });
  return [words(type), ...details].join(' ');
}

function describePly(entry, names) {
  const who = entry.seat === null || entry.seat === undefined ? 'Table' : names[entry.seat];
  const move = entry.move ? `: ${describeMove(entry.move, names)}` : '';
  const events = (entry.events || []).map((event) => {
    const { type, ...rest } = event;
    const details = Object.entries(rest).filter(([, value]) => value !== null)
      .map(([key, value]) => `${words(key)} ${key === 'seat' ? names[value] : brief(value, names)}`);
    return `${words(type)}${details.length ? ` (${details.join(', ')})` : ''}`;
  });
  return `${who}${move}${events.length ? ` → ${events.join('; ')}` : ''}`;
}

const HIDDEN_VIEW_KEYS = new Set(['legal_moves', 'options', 'viewer', 'to_act', 'players', 'totals']);

export async function watchForm(main) {
  await games();
  const idInput = h('input', { type: 'text', name: 'match', autocomplete: 'off', spellcheck: 'false', required: true });
  const tokenInput = h('input', { type: 'password', name: 'token', autocomplete: 'off', spellcheck: 'false' });
  const form = h('form', {
    class: 'card',
    'aria-labelledby': 'watch-title',
    onsubmit(event) {
      event.preventDefault();
      clearFieldErrors(form);
      const id = idInput.value.trim();
      if (!UUID.test(id)) {
        showFieldError(idInput, 'A match id looks like 0f8c6b1e-…: 36 letters, digits and dashes.');
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
        showFieldError(codeInput, error.message);
      }
    },
  },
  h('h2', { id: 'join-title' }, 'Join with an invite code'),
  field('Invite code', codeInput, 'The code the match’s owner gave you for your seat (10 letters and digits).'),
  h('button', { type: 'submit' }, 'Take my seat'));
  replace(main, h('h1', { tabindex: -1 }, 'Watch a match'), form, joinForm);
}

/** Redeems an invite code for its seat's token, keeps the token on this phone and opens the
 * seat's view: only ever on a tap. A code works once; a refusal (taken, unknown) is thrown with
 * its message. */
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
  const title = `${gameTitle(invite.game)}: ${invite.name}’s seat`;
  if (invite.redeemed) {
    replace(main, h('h1', { tabindex: -1 }, title),
      h('p', { class: 'error', role: 'alert' }, 'A phone already took this seat with this code. Ask the match’s owner for a new invite.'),
      h('p', {}, h('a', { href: `#match=${encodeURIComponent(invite.match_id)}` }, 'Watch the match')));
    return;
  }
  const refusal = h('p', { class: 'error', role: 'alert', hidden: true, tabindex: -1 });
  const take = h('button', {
    type: 'button',
    async onclick() {
      take.disabled = true;
      refusal.hidden = true;
      try {
        await redeemInvite(code);
      } catch (error) {
        take.disabled = false;
        showRefusal(error, null, refusal);
      }
    },
  }, `Take ${invite.name}’s seat`);
  replace(main, h('h1', { tabindex: -1 }, title),
    h('section', { class: 'card', 'aria-labelledby': 'invite-title' },
      h('h2', { id: 'invite-title' }, `You are invited to play as ${invite.name}`),
      h('p', {}, 'This phone will hold the seat’s token and play for it. The code works once: tap only on the phone that will play.'),
      refusal,
      take),
    h('p', {}, h('a', { href: `#match=${encodeURIComponent(invite.match_id)}` }, 'Only watch the match')));
}

export function matchView(main, id) {
  const token = seatToken(id);
  const heading = h('h1', { tabindex: -1 }, 'Match');
  const status = h('p', { class: 'status', role: 'status' });
  const loadError = h('p', { class: 'error', role: 'alert', hidden: true });
  const standingsSlot = h('div');
  const movesSlot = h('div');
  const tableSlot = h('section', { class: 'card', 'aria-labelledby': 'table-title' });
  const logList = h('ol', { class: 'log' });
  const logSection = h('section', { class: 'card', 'aria-labelledby': 'log-title' }, h('h2', { id: 'log-title' }, 'Log'), logList);
  let match = null;
  let names = [];
  let lastStatus = '';

  const leave = token ? h('p', {}, h('button', {
    type: 'button',
    class: 'link',
    onclick: () => {
      forgetSeat(id);
      window.location.reload();
    },
  }, 'Forget my seat token and watch as a spectator')) : null;
  replace(main, heading, loadError, status, standingsSlot, movesSlot, tableSlot, logSection, leave);

  function statusText() {
    if (match.status === 'finished') {
      const winners = match.standings.winners.map((seat) => names[seat]);
      return `Finished: ${winners.join(' and ')} ${winners.length > 1 ? 'share the win' : 'wins'}.`;
    }
    const acting = (match.to_act || []).map((seat) => names[seat]);
    if (match.chance_pending) return 'Waiting for the deal, a draw or a roll.';
    return `In progress. To act: ${acting.join(', ') || 'nobody'}.`;
  }

  function renderStandings() {
    replace(standingsSlot, h('table', { class: 'standings' },
      h('caption', {}, match.status === 'finished' ? 'Final standings' : 'Standings'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Rank'), h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col', class: 'number' }, 'Total'))),
      h('tbody', {}, match.seats.map((seat) => h('tr', { class: match.standings.winners.includes(seat.seat) ? 'winner' : null },
        h('td', {}, match.standings.ranks[seat.seat]),
        h('th', { scope: 'row' }, seat.name, (match.to_act || []).includes(seat.seat) && match.status !== 'finished' ? h('span', { class: 'badge' }, ' to act') : null),
        h('td', { class: 'number' }, formatNumber(match.standings.totals[seat.seat])))))));
  }

  function renderTable() {
    const view = match.view || {};
    const rows = Object.entries(view).filter(([key]) => !HIDDEN_VIEW_KEYS.has(key));
    replace(tableSlot, 
      h('h2', { id: 'table-title' }, match.viewer && match.viewer.seat !== undefined ? 'Your view of the table' : 'The table'),
      h('dl', { class: 'view' }, rows.map(([key, value]) => [h('dt', {}, words(key)), h('dd', {}, brief(value, names))])),
      match.seed ? h('p', { class: 'muted' }, `Seed revealed: ${match.seed}`) : h('p', { class: 'muted' }, `Seed SHA-256: ${match.seed_sha256 || 'table deals'}`),
      // A finished match is public, its export included.
      match.status === 'finished' ? h('p', { class: 'buttons' },
        h('a', { class: 'button secondary', href: `/v1/matches/${id}/export`, download: `match-${id}.json` }, 'Export (JSON)'),
        h('a', { class: 'button secondary', href: `/v1/matches/${id}/bgstats`, download: `match-${id}-bgstats.json` }, 'BG Stats')) : null);
  }

  function renderMoves() {
    if (!token) return;
    const seat = match.viewer && match.viewer.seat;
    const legal = (match.view && match.view.legal_moves) || [];
    const group = h('div', { class: 'buttons', role: 'group', 'aria-labelledby': 'moves-title', id: 'moves', tabindex: -1 });
    const error = h('p', { class: 'error', id: 'moves-error', hidden: true });
    for (const move of legal) {
      group.append(h('button', {
        type: 'button',
        async onclick() {
          clearFieldErrors(movesSlot);
          try {
            await post(`/v1/matches/${id}/moves`, { move, expected_version: match.version }, { token });
            announce(`Played: ${describeMove(move, names)}.`);
            await refresh();
          } catch (failure) {
            showRefusal(failure, group, error);
          }
        },
      }, describeMove(move, names)));
    }
    replace(movesSlot, h('section', { class: 'card', 'aria-labelledby': 'moves-title' },
      h('h2', { id: 'moves-title' }, `Your moves${seat !== undefined ? `, ${names[seat]}` : ''}`),
      legal.length ? group : h('p', { class: 'muted' }, match.status === 'finished' ? 'The match is over.' : 'Nothing to do right now: wait for your turn.'),
      error));
  }

  async function renderLog() {
    try {
      // The log comes in pages; a long match takes a few.
      const entries = [];
      for (let after = 0; after !== null;) {
        const page = await get(`/v1/matches/${id}/log?after=${after}&limit=1000`, { token });
        entries.push(...page.entries);
        after = page.next_after ?? null;
      }
      replace(logList, ...entries.map((entry) => h('li', {},
        h('span', { class: 'ply' }, `${entry.ply}. `), describePly(entry, names),
        h('span', { class: 'muted' }, ` ${formatTime(entry.at)}`))));
    } catch (error) {
      replace(logList, h('li', { class: 'error' }, error.message));
    }
  }

  function show(next) {
    match = next;
    names = match.seats.map((seat) => seat.name);
    heading.textContent = `${gameTitle(match.game)}: ${names.join(', ')}`;
    const text = statusText();
    status.textContent = text;
    if (lastStatus && text !== lastStatus) announce(text);
    lastStatus = text;
    renderStandings();
    renderMoves();
    renderTable();
    renderLog();
  }

  async function refresh() {
    try { show((await get(`/v1/matches/${id}`, { token }))); } catch { /* the follower reports */ }
  }

  games().then(() => {
    if (match) heading.textContent = `${gameTitle(match.game)}: ${names.join(', ')}`;
  }).catch(() => null);
  return follow(`/v1/matches/${id}`, {
    token,
    streamPath: `/v1/matches/${id}/stream`,
    onData(next) {
      loadError.hidden = true;
      if (!match || next.version !== match.version || next.status !== match.status) show(next);
    },
    onError(error) {
      loadError.textContent = error.message;
      loadError.hidden = false;
    },
    quiet: () => match && match.status === 'finished',
  });
}
