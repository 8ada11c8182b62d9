// Looking back: a player's record and history, each game's leaderboard, and the exports.

import { get } from './api.js';
import { explain, placeOf } from './messages.js';
import { h, replace, field, showFieldError, clearFieldErrors, formatNumber, formatTime, words } from './dom.js';
import { games, gameTitle } from './sheet.js';

const percent = (rate) => `${Math.round((rate || 0) * 100)}%`;
const figure = (value) => (value === null || value === undefined ? '–' : formatNumber(Math.round(value * 10) / 10));

function recordList(record) {
  const items = [
    ['Played', record.played], ['Won', record.won], ['Win rate', percent(record.win_rate)],
    ['Average score', figure(record.average_score)], ['Best score', figure(record.best_score)],
    ['Current winning streak', record.current_streak], ['Longest winning streak', record.longest_streak],
    ...Object.entries(record.highlights || {}).map(([key, value]) => [words(key).replace(/^./, (c) => c.toUpperCase()), formatNumber(value)]),
  ];
  return h('dl', { class: 'record' }, items.map(([label, value]) => [h('dt', {}, label), h('dd', {}, String(value))]));
}

// "All time" or "this year": the statistics endpoints count the matches that ended from `from`.
const PERIODS = [['all', 'All time'], ['year', 'This year']];
const yearStart = () => `${new Date().getFullYear()}-01-01T00:00:00Z`;
const periodQuery = (period) => (period === 'year' ? `from=${encodeURIComponent(yearStart())}` : '');
const periodSelect = (params) => {
  const select = h('select', { name: 'period' }, PERIODS.map(([value, label]) => h('option', { value }, label)));
  select.value = params.get('period') === 'year' ? 'year' : 'all';
  return select;
};
const periodHash = (select) => (select.value === 'year' ? '&period=year' : '');

export async function lookBackView(main, params) {
  const catalogue = await games();
  const playerPeriod = periodSelect(params);
  const boardPeriod = periodSelect(params);
  const nameInput = h('input', { type: 'text', name: 'player', autocomplete: 'off', value: params.get('player') || '' });
  const playerForm = h('form', {
    class: 'card',
    'aria-labelledby': 'player-title',
    onsubmit(event) {
      event.preventDefault();
      clearFieldErrors(playerForm);
      if (!nameInput.value.trim()) {
        showFieldError(nameInput, 'Type a player’s name.');
        return;
      }
      location.hash = `player=${encodeURIComponent(nameInput.value.trim())}${periodHash(playerPeriod)}`;
    },
  }, h('h2', { id: 'player-title' }, 'A player'), field('Name', nameInput), field('Period', playerPeriod), h('button', { type: 'submit' }, 'Show their record'));

  const gameSelect = h('select', { name: 'board' }, catalogue.map((game) => h('option', { value: game.slug }, game.title)));
  if (params.get('board')) gameSelect.value = params.get('board');
  const boardForm = h('form', {
    class: 'card',
    'aria-labelledby': 'board-title',
    onsubmit(event) {
      event.preventDefault();
      location.hash = `board=${gameSelect.value}${periodHash(boardPeriod)}`;
    },
  }, h('h2', { id: 'board-title' }, 'A game’s leaderboard'), field('Game', gameSelect), field('Period', boardPeriod), h('button', { type: 'submit' }, 'Show the leaderboard'));

  const results = h('div', { 'aria-live': 'polite' });
  replace(main, h('h1', { tabindex: -1 }, 'Look back'), playerForm, boardForm, results);

  try {
    const period = params.get('period') === 'year' ? 'year' : 'all';
    if (params.get('player')) replace(results, await playerRecord(params.get('player'), period));
    else if (params.get('board')) replace(results, await leaderboard(params.get('board'), period));
  } catch (error) {
    // The catalogue's words, never the service's detail; a refusal about the name goes beside it.
    const problem = error.problem || {};
    const message = explain(problem, { game: params.get('board') });
    const { field } = placeOf(problem);
    if (params.get('player') && field === 'name') showFieldError(nameInput, message);
    else if (params.get('board') && field === 'game') showFieldError(gameSelect, message);
    else replace(results, h('p', { class: 'error', role: 'alert' }, message));
  }
}

async function playerRecord(name, period) {
  const path = encodeURIComponent(name);
  const [stats, recent] = await Promise.all([
    get(`/v1/players/${path}/stats?${periodQuery(period)}`),
    get(`/v1/matches?player=${path}&limit=20`),
  ]);
  return h('section', { class: 'card', 'aria-labelledby': 'record-title' },
    h('h2', { id: 'record-title' }, `${stats.player}’s record${period === 'year' ? ' this year' : ''}`),
    stats.overall.played === 0 ? h('p', { class: 'muted' }, 'No finished games yet.')
      : h('section', { 'aria-label': 'All games' }, h('h3', {}, 'All games'), recordList(stats.overall)),
    stats.games.map((game) => h('section', { 'aria-label': gameTitle(game.game) }, h('h3', {}, gameTitle(game.game)), recordList(game))),
    h('h3', {}, 'Latest games'),
    recent.items.length ? h('ul', { class: 'plain' }, recent.items.map((item) => h('li', {},
      h('a', { href: item.kind === 'sheet' ? `#sheet=${item.id}` : `#match=${item.id}` },
        `${gameTitle(item.game)}: ${item.players.join(', ')}`),
      ` ${words(item.status)}${item.winners.length ? `, won by ${item.winners.join(' and ')}` : ''} `,
      h('span', { class: 'muted' }, formatTime(item.finished_at || item.created_at))))) : h('p', { class: 'muted' }, 'None.'),
    h('h3', {}, 'Export'),
    h('p', { class: 'buttons' },
      h('a', { class: 'button secondary', href: `/v1/players/${path}/history?format=csv`, download: `${name}-history.csv` }, 'History as CSV'),
      h('a', { class: 'button secondary', href: `/v1/players/${path}/history?format=ndjson`, download: `${name}-history.ndjson` }, 'History as NDJSON')));
}

async function leaderboard(game, period) {
  const since = periodQuery(period);
  const rows = await get(`/v1/games/${encodeURIComponent(game)}/leaderboard?limit=20&${since}`);
  // The brag figures (jackpots, best lei...) are per player; fetch them for the rows shown.
  const records = await Promise.all(rows.map((row) => get(`/v1/players/${encodeURIComponent(row.player)}/stats?game=${game}&${since}`)
    .then((stats) => (stats.games[0] || {}).highlights || {}).catch(() => ({}))));
  const figures = [...new Set(records.flatMap((highlights) => Object.keys(highlights)))]
    // Per-symbol jackpot counts would make the table too wide for a phone; the total stays.
    .filter((key) => !key.startsWith('jackpots_')).sort();
  // "Who has the most jackpots?" in one sentence per figure, ahead of the table.
  const leaders = figures.map((key) => {
    const best = Math.max(0, ...records.map((highlights) => highlights[key] || 0));
    const names = rows.filter((_, index) => best > 0 && (records[index][key] || 0) === best).map((row) => row.player);
    return names.length ? h('li', {}, `Most ${words(key)}: ${names.join(' and ')} (${formatNumber(best)})`) : null;
  }).filter(Boolean);
  return h('section', { class: 'card', 'aria-labelledby': 'leaderboard-title' },
    h('h2', { id: 'leaderboard-title' }, `${gameTitle(game)} leaderboard${period === 'year' ? ' this year' : ''}`),
    leaders.length ? h('ul', { class: 'leaders' }, leaders) : null,
    rows.length === 0 ? h('p', { class: 'muted' }, 'No finished games yet.') : h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'Leaderboard table (scrolls sideways)' },
      h('table', {},
        h('caption', {}, 'By wins, then win rate'),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col', class: 'number' }, 'Won'),
          h('th', { scope: 'col', class: 'number' }, 'Played'), h('th', { scope: 'col', class: 'number' }, 'Win rate'),
          figures.map((key) => h('th', { scope: 'col', class: 'number' }, words(key))))),
        h('tbody', {}, rows.map((row, index) => h('tr', {},
          h('th', { scope: 'row' }, h('a', { href: `#player=${encodeURIComponent(row.player)}` }, row.player)),
          h('td', { class: 'number' }, row.won), h('td', { class: 'number' }, row.played), h('td', { class: 'number' }, percent(row.win_rate)),
          figures.map((key) => h('td', { class: 'number' }, formatNumber(records[index][key] || 0)))))))));
}
