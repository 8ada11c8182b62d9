// Looking back: a player's record and history, each game's leaderboard, and the exports, in the
// phone's household (every read carries its key) or the public space; and plays brought in from
// BG Stats (import.js), after which the record or board shown is read again.

import { get, keyedDownload } from './api.js';
import { spaceLine } from './household.js';
import { explain, placeOf } from './messages.js';
import { h, replace, field, showFieldError, clearFieldErrors, formatNumber, formatTime, words } from './dom.js';
import { games, gameTitle } from './sheet.js';
import { formatRating, placeText, ratingChart, ratingList, ratingNote, chartSummary, versusLine, sideText, RATING_MEANING } from './ratings.js';
import { importCard } from './import.js';

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

// The leaderboard's two orders: the existing one by wins, or by skill rating (its own endpoint).
const ORDERS = [['wins', 'By wins'], ['rating', 'By rating']];
const orderOf = (params) => (params.get('order') === 'rating' ? 'rating' : 'wins');

/** How many pages (500 results each) of a player's rating history a chart reads at most: years
 * of evenings, and an end to the reading however long the history. */
const CHART_PAGES = 4;

/**
 * A "More" button for a list the service pages with `next_cursor`: each tap reads `pageAt(cursor)`
 * and hands its items to `add`, which returns the first new element that takes focus (so a
 * keyboard or screen reader user carries on from there); the button goes once the list is whole.
 */
function moreButton(firstCursor, pageAt, add) {
  let cursor = firstCursor;
  const error = h('p', { class: 'error', tabindex: -1, hidden: true });
  const button = h('button', {
    type: 'button',
    class: 'secondary',
    async onclick() {
      button.disabled = true;
      error.hidden = true;
      try {
        const page = await pageAt(cursor);
        const first = add(page.items);
        cursor = page.next_cursor;
        if (!cursor) wrapper.remove();
        if (first) first.focus();
      } catch (refusal) {
        error.textContent = explain(refusal.problem);
        error.hidden = false;
        error.focus();
      } finally {
        button.disabled = false;
      }
    },
  }, 'More');
  const wrapper = h('div', { class: 'more' }, button, error);
  return firstCursor ? wrapper : null;
}

/** A query string from its parts, the empty ones left out. */
const query = (...parts) => parts.filter(Boolean).join('&');
const cursorQuery = (cursor) => (cursor ? `cursor=${encodeURIComponent(cursor)}` : '');

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
  const orderSelect = h('select', { name: 'order' }, ORDERS.map(([value, label]) => h('option', { value }, label)));
  orderSelect.value = orderOf(params);
  const boardForm = h('form', {
    class: 'card',
    'aria-labelledby': 'board-title',
    onsubmit(event) {
      event.preventDefault();
      const order = orderSelect.value === 'rating' ? '&order=rating' : '';
      location.hash = `board=${gameSelect.value}${order}${periodHash(boardPeriod)}`;
    },
  }, h('h2', { id: 'board-title' }, 'A game’s leaderboard'), field('Game', gameSelect), field('Order', orderSelect), field('Period', boardPeriod),
  h('button', { type: 'submit' }, 'Show the leaderboard'));

  // Head to head: two players' results at the same table, in one game or all of them. The address
  // keeps `look` so that the router stays on this view.
  const versusInput = h('input', { type: 'text', name: 'versus', autocomplete: 'off', value: params.get('versus') || '' });
  const opponentInput = h('input', { type: 'text', name: 'opponent', autocomplete: 'off', value: params.get('opponent') || '' });
  const versusGame = h('select', { name: 'versus-game' }, h('option', { value: '' }, 'Every game'),
    catalogue.map((game) => h('option', { value: game.slug }, game.title)));
  if (params.get('versus')) versusGame.value = params.get('game') || '';
  const versusForm = h('form', {
    class: 'card',
    'aria-labelledby': 'versus-title',
    onsubmit(event) {
      event.preventDefault();
      clearFieldErrors(versusForm);
      const [one, other] = [versusInput.value.trim(), opponentInput.value.trim()];
      if (!one) showFieldError(versusInput, 'Type a player’s name.');
      else if (!other) showFieldError(opponentInput, 'Type the other player’s name.');
      else if (one.toLowerCase() === other.toLowerCase()) showFieldError(opponentInput, 'Type someone else: nobody plays against themselves.');
      else {
        const game = versusGame.value ? `&game=${encodeURIComponent(versusGame.value)}` : '';
        location.hash = `look&versus=${encodeURIComponent(one)}&opponent=${encodeURIComponent(other)}${game}`;
      }
    },
  }, h('h2', { id: 'versus-title' }, 'Head to head'), field('Player', versusInput), field('Against', opponentInput),
  field('Which game', versusGame), h('button', { type: 'submit' }, 'Compare them'));

  const results = h('div', { 'aria-live': 'polite' });
  // Whose records these are: the household's, or the service's public ones.
  const space = h('p', { class: 'lead space' }, spaceLine());
  // Plays brought in from BG Stats: the record or board shown is read again with them.
  const fields = { nameInput, gameSelect, versusInput, opponentInput, versusGame };
  const bringIn = importCard({ onImported: () => showResults(params, results, fields), onSpaceChange: () => { space.textContent = spaceLine(); } });
  replace(main, h('h1', { tabindex: -1 }, 'Look back'), space, playerForm, boardForm, versusForm, bringIn, results);
  await showResults(params, results, fields);
}

/** Reads what the address asks for (a record, a board, a head to head) into `results`; a refusal
 * goes beside the field it is about, in the catalogue's words. */
async function showResults(params, results, { nameInput, gameSelect, versusInput, opponentInput, versusGame }) {
  try {
    const period = params.get('period') === 'year' ? 'year' : 'all';
    if (params.get('player')) replace(results, await playerRecord(params.get('player'), period));
    else if (params.get('board') && orderOf(params) === 'rating') replace(results, await ratingBoard(params.get('board'), period));
    else if (params.get('board')) replace(results, await leaderboard(params.get('board'), period));
    else if (params.get('versus') && params.get('opponent')) {
      replace(results, await headToHead(params.get('versus'), params.get('opponent'), params.get('game') || ''));
    }
  } catch (error) {
    // The catalogue's words, never the service's detail; a refusal about the name goes beside it.
    const problem = error.problem || {};
    const message = explain(problem, { game: params.get('board') || params.get('game') });
    const { field } = placeOf(problem);
    if (params.get('player') && field === 'name') showFieldError(nameInput, message);
    else if (params.get('board') && field === 'game') showFieldError(gameSelect, message);
    else if (params.get('versus') && field === 'name') showFieldError(problem.code === 'same_player' ? opponentInput : versusInput, message);
    else if (params.get('versus') && field === 'game') showFieldError(versusGame, message);
    else replace(results, h('p', { class: 'error', role: 'alert' }, message));
  }
}

async function playerRecord(name, period) {
  const path = encodeURIComponent(name);
  const [stats, recent, ratings] = await Promise.all([
    get(`/v1/players/${path}/stats?${periodQuery(period)}`),
    get(`/v1/matches?player=${path}&limit=20`),
    // The record stands without its ratings: a refusal there is said in their own section.
    playerRatings(name, period).catch((error) => h('p', { class: 'error' }, explain(error.problem))),
  ]);
  return h('section', { class: 'card', 'aria-labelledby': 'record-title' },
    h('h2', { id: 'record-title' }, `${stats.player}’s record${period === 'year' ? ' this year' : ''}`),
    stats.overall.played === 0 ? h('p', { class: 'muted' }, 'No finished games yet.')
      : h('section', { 'aria-label': 'All games' }, h('h3', {}, 'All games'), recordList(stats.overall)),
    stats.games.map((game) => h('section', { 'aria-label': gameTitle(game.game) }, h('h3', {}, gameTitle(game.game)), recordList(game))),
    h('section', { 'aria-labelledby': 'ratings-title' }, h('h3', { id: 'ratings-title' }, 'Skill ratings'), ratings),
    h('h3', {}, 'Latest games'),
    recent.items.length ? h('ul', { class: 'plain' }, recent.items.map((item) => h('li', {},
      h('a', { href: item.kind === 'sheet' ? `#sheet=${item.id}` : `#match=${item.id}` },
        `${gameTitle(item.game)}: ${item.players.join(', ')}`),
      ` ${words(item.status)}${item.winners.length ? `, won by ${item.winners.join(' and ')}` : ''} `,
      h('span', { class: 'muted' }, formatTime(item.finished_at || item.created_at))))) : h('p', { class: 'muted' }, 'None.'),
    h('h3', {}, 'Export'),
    h('p', { class: 'buttons' },
      keyedDownload(h('a', { class: 'button secondary', href: `/v1/players/${path}/history?format=csv`, download: `${name}-history.csv` }, 'History as CSV')),
      keyedDownload(h('a', { class: 'button secondary', href: `/v1/players/${path}/history?format=ndjson`, download: `${name}-history.ndjson` }, 'History as NDJSON'))));
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
  // A service with skill ratings gives each row its rating (null before any rated result).
  const rated = rows.some((row) => row.rating !== undefined);
  return h('section', { class: 'card', 'aria-labelledby': 'leaderboard-title' },
    h('h2', { id: 'leaderboard-title' }, `${gameTitle(game)} leaderboard${period === 'year' ? ' this year' : ''}`),
    leaders.length ? h('ul', { class: 'leaders' }, leaders) : null,
    rows.length === 0 ? h('p', { class: 'muted' }, 'No finished games yet.') : h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'Leaderboard table (scrolls sideways)' },
      h('table', {},
        h('caption', {}, 'By wins, then win rate'),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col', class: 'number' }, 'Won'),
          h('th', { scope: 'col', class: 'number' }, 'Played'), h('th', { scope: 'col', class: 'number' }, 'Win rate'),
          rated ? h('th', { scope: 'col', class: 'number' }, 'Rating') : null,
          figures.map((key) => h('th', { scope: 'col', class: 'number' }, words(key))))),
        h('tbody', {}, rows.map((row, index) => h('tr', {},
          h('th', { scope: 'row' }, h('a', { href: `#player=${encodeURIComponent(row.player)}` }, row.player)),
          h('td', { class: 'number' }, row.won), h('td', { class: 'number' }, row.played), h('td', { class: 'number' }, percent(row.win_rate)),
          rated ? h('td', { class: 'number' }, formatRating(row.rating)) : null,
          figures.map((key) => h('td', { class: 'number' }, formatNumber(records[index][key] || 0)))))))));
}

/** Every page of a player's rating history in one game (oldest first), up to `CHART_PAGES`. */
async function ratingHistory(path, game, period) {
  const items = [];
  let cursor = null;
  for (let page = 0; page < CHART_PAGES; page += 1) {
    const reply = await get(`/v1/players/${path}/ratings/${encodeURIComponent(game)}?${query('limit=500', periodQuery(period), cursorQuery(cursor))}`);
    items.push(...reply.items);
    cursor = reply.next_cursor;
    if (!cursor) break;
  }
  return items;
}

/**
 * A player's rating in each game they have a rated result in: the rating now, their place on the
 * game's rating leaderboard and how many results it rests on, and a chart of how it got there
 * (within the period, when one is chosen). Not regions of their own: a game's record above is the
 * region named after the game.
 */
async function playerRatings(name, period) {
  const path = encodeURIComponent(name);
  const ratings = await get(`/v1/players/${path}/ratings`);
  if (ratings.games.length === 0) return h('p', { class: 'muted' }, 'No rated results yet: a rating starts with the first finished game.');
  const histories = await Promise.all(ratings.games.map((game) => ratingHistory(path, game.game, period)));
  return [
    h('p', { class: 'hint' }, RATING_MEANING),
    h('ul', { class: 'ratings' }, ratings.games.map((game, index) => h('li', {},
      h('h4', {}, gameTitle(game.game)),
      h('dl', { class: 'record' },
        h('dt', {}, 'Rating'), h('dd', {}, formatRating(game.rating)),
        h('dt', {}, 'Place'), h('dd', {}, placeText(game.place, game.players)),
        h('dt', {}, 'Results rated'), h('dd', {}, formatNumber(game.rated))),
      h('p', { class: 'hint' }, ratingNote(game.rating, game.rated)),
      histories[index].length ? [ratingChart(histories[index], { label: `${ratings.player}’s ${gameTitle(game.game)} rating` }), ratingList(histories[index])]
        : h('p', { class: 'muted' }, period === 'year' ? 'No rated results this year.' : chartSummary([]))))),
  ];
}

/** The rating leaderboard: place, player, rating, results rated and won, a page at a time. */
async function ratingBoard(game, period) {
  const since = periodQuery(period);
  const pageAt = (cursor) => get(`/v1/games/${encodeURIComponent(game)}/ratings?${query('limit=20', since, cursorQuery(cursor))}`);
  const first = await pageAt(null);
  const row = (item) => h('tr', {},
    h('td', { class: 'number' }, item.place),
    h('th', { scope: 'row' }, h('a', { href: `#player=${encodeURIComponent(item.player)}` }, item.player)),
    h('td', { class: 'number' }, formatRating(item.rating)),
    h('td', { class: 'number' }, formatNumber(item.rated)),
    h('td', { class: 'number' }, formatNumber(item.won)));
  const body = h('tbody', {}, first.items.map(row));
  const more = moreButton(first.next_cursor, pageAt, (items) => {
    const rows = items.map(row);
    body.append(...rows);
    return rows.length ? rows[0].querySelector('a') : null;
  });
  return h('section', { class: 'card', 'aria-labelledby': 'leaderboard-title' },
    h('h2', { id: 'leaderboard-title' }, `${gameTitle(game)} leaderboard by rating${period === 'year' ? ' this year' : ''}`),
    first.items.length === 0 ? h('p', { class: 'muted' }, 'No rated results yet.') : [
      h('p', { class: 'hint' }, RATING_MEANING),
      h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'Rating leaderboard table (scrolls sideways)' },
        h('table', { class: 'rating-board' },
          h('caption', {}, 'By skill rating'),
          h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'number' }, 'Place'), h('th', { scope: 'col' }, 'Player'),
            h('th', { scope: 'col', class: 'number' }, 'Rating'), h('th', { scope: 'col', class: 'number' }, 'Rated'),
            h('th', { scope: 'col', class: 'number' }, 'Won'))),
          body)),
      more,
    ]);
}

/**
 * Two players' results at the same table: per game, who was ahead how often and their ratings;
 * then the results themselves, newest first, a page at a time.
 */
async function headToHead(player, opponent, game) {
  const gameQuery = game ? `game=${encodeURIComponent(game)}` : '';
  const pageAt = (cursor) => get(`/v1/players/${encodeURIComponent(player)}/versus/${encodeURIComponent(opponent)}?${query('limit=20', gameQuery, cursorQuery(cursor))}`);
  const first = await pageAt(null);
  // The service's spelling of the names (the one they were first entered with).
  const [one, other] = [first.player, first.opponent];
  const result = (item) => h('li', {},
    h('a', { href: item.kind === 'sheet' ? `#sheet=${item.match_id}` : `#match=${item.match_id}` },
      `${gameTitle(item.game)}: ${sideText(item.player)}; ${sideText(item.opponent)}`),
    ' ', h('span', { class: 'muted' }, formatTime(item.finished_at)));
  const list = h('ol', { class: 'shared', 'aria-labelledby': 'shared-title' }, first.items.map(result));
  const more = moreButton(first.next_cursor, pageAt, (items) => {
    const entries = items.map(result);
    list.append(...entries);
    return entries.length ? entries[0].querySelector('a') : null;
  });
  return h('section', { class: 'card', 'aria-labelledby': 'versus-result-title' },
    h('h2', { id: 'versus-result-title' }, `${one} against ${other}${game ? `, ${gameTitle(game)}` : ''}`),
    first.games.length === 0 ? h('p', { class: 'muted' }, 'They have not finished a game at the same table yet.') : [
      h('ul', { class: 'versus' }, first.games.map((row) => h('li', {},
        h('h3', {}, gameTitle(row.game)),
        h('p', {}, `${row.played} played: ${versusLine(row, one, other)}`),
        h('p', { class: 'muted' }, `Ratings: ${one} ${formatRating(row.player_rating)}, ${other} ${formatRating(row.opponent_rating)}`)))),
      h('h3', { id: 'shared-title' }, 'Their results together'),
      list,
      more,
    ]);
}
