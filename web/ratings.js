// Skill ratings in words and pictures: a rating to one decimal, "2nd of 7", who was ahead of whom,
// and a small chart of a player's rating over their rated results, drawn as inline SVG.
// Nothing here touches `document` until a chart is drawn, so Node's test runner imports this file
// as it is (tests/browser/ratings.test.mjs).

import { h, svg as s } from './dom.js';

/** A rating (the service's `{mu, sigma, rating}`, or the bare number) to one decimal; "–" for none.
 * The shown value is the cautious one, mu − 3·sigma, so a newcomer shows 0.0. */
export function formatRating(rating) {
  const value = rating !== null && typeof rating === 'object' ? rating.rating : rating;
  if (typeof value !== 'number' || !Number.isFinite(value)) return '–';
  const rounded = Math.round(value * 10) / 10;
  // -0.04 rounds to -0: a newcomer's "-0.0" would read as a penalty.
  return (Object.is(rounded, -0) ? 0 : rounded).toFixed(1);
}

/** 1 → "1st", 2 → "2nd", 11 → "11th", 22 → "22nd". */
export function ordinal(number) {
  const tens = number % 100;
  if (tens >= 11 && tens <= 13) return `${number}th`;
  return `${number}${({ 1: 'st', 2: 'nd', 3: 'rd' })[number % 10] || 'th'}`;
}

/** A place on a game's rating leaderboard: "2nd of 7". */
export function placeText(place, players) {
  return Number.isInteger(place) && Number.isInteger(players) ? `${ordinal(place)} of ${players}` : '–';
}

const plural = (count, one, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** What a rating means, in one place for every screen that shows ratings: it must never say a
 * rating cannot be below 0, since a cautious one is after a first loss. */
export const RATING_MEANING = 'A rating is a careful guess at how well someone plays the game: a level they very probably play at, at least. '
  + 'Everyone starts at 0.0. Good places, above all against strong players, raise it; it settles as games add up. '
  + 'Early on it can dip below 0: that is the caution of a guess made from few games, not a penalty.';

/** How far a rated result count goes before a rating reads as settled rather than a first guess. */
const SETTLED = 5;

/** The rating of one game in a sentence a family reads beside the number:
 * "A first guess from 1 result: below the 0.0 everyone starts at; good places will raise it." */
export function ratingNote(rating, rated) {
  const value = rating !== null && typeof rating === 'object' ? rating.rating : rating;
  if (typeof value !== 'number' || !Number.isFinite(value) || !Number.isInteger(rated) || rated < 1) return '';
  const basis = rated < SETTLED ? `A first guess from ${plural(rated, 'result')}` : `Settling, from ${plural(rated, 'result')}`;
  if (formatRating(value).startsWith('-')) return `${basis}: below the 0.0 everyone starts at; good places will raise it.`;
  if (formatRating(value) === '0.0') return `${basis}: where everyone starts.`;
  return `${basis}: above the 0.0 everyone starts at.`;
}

/** A result's day, short: "3 Apr 2025" in the phone's own way of writing dates ("Apr 3, 2025"). */
export function shortDate(iso, { locale, timeZone } = {}) {
  const date = new Date(iso);
  if (!iso || Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString(locale, { day: 'numeric', month: 'short', year: 'numeric', timeZone });
}

/** The chart's two bottom labels: the first result's day on the left, the last one's on the
 * right; an evening's results share a day, so then the left one says "Start". */
export function chartDates(items, options = {}) {
  if (!items || items.length === 0) return { first: '', last: '' };
  const first = shortDate(items[0].finished_at, options);
  const last = shortDate(items[items.length - 1].finished_at, options);
  return first === last ? { first: 'Start', last } : { first, last };
}

/** One rated result in words, for the list beside the chart: "2nd of 3, rating 0.0 to -1.0". */
export function pointText(item) {
  const place = Number.isInteger(item.rank) && Number.isInteger(item.players) ? placeText(item.rank, item.players) : 'Played';
  return `${place}, rating ${formatRating(item.before)} to ${formatRating(item.after)}`;
}

/** The values a chart draws from a player's rating history (oldest first): the rating before the
 * first rated result, then the rating after each. */
export function ratingSeries(items) {
  if (!items || items.length === 0) return [];
  return [items[0].before.rating, ...items.map((item) => item.after.rating)];
}

/** What the chart shows, in one sentence: "Rating from 0.0 to 14.2 over 12 results". */
export function chartSummary(items) {
  if (!items || items.length === 0) return 'No rated results';
  const values = ratingSeries(items);
  return `Rating from ${formatRating(values[0])} to ${formatRating(values[values.length - 1])} over ${plural(items.length, 'result')}`;
}

/** The chart's size in SVG units (the `viewBox`; CSS scales it to the width at hand), and room
 * kept for the value labels on the left and the result labels below. */
export const CHART = { width: 320, height: 120, left: 40, right: 10, top: 10, bottom: 22 };

/**
 * Where everything goes, in the chart's own units: `points` ([x, y] per value), `path` (the line
 * through them) and the labels of the lowest and highest value (`low`, `high`, each `{y, text}`).
 * Results are evenly spaced (a family reads "over 12 games", not a calendar); values are scaled
 * between the lowest and the highest, with a little room so a flat line sits mid-height.
 */
export function chartGeometry(values, size = CHART) {
  const { width, height, left, right, top, bottom } = size;
  const plotWidth = width - left - right;
  const plotHeight = height - top - bottom;
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (!(high - low > 1e-9)) {
    low -= 1;
    high += 1;
  }
  const y = (value) => top + plotHeight * (1 - (value - low) / (high - low));
  const x = (index) => left + (values.length === 1 ? plotWidth / 2 : (plotWidth * index) / (values.length - 1));
  const round = (n) => Math.round(n * 10) / 10;
  const points = values.map((value, index) => [round(x(index)), round(y(value))]);
  const path = points.map(([px, py], index) => `${index === 0 ? 'M' : 'L'}${px} ${py}`).join(' ');
  const lowest = Math.min(...values);
  const highest = Math.max(...values);
  return {
    points,
    path,
    low: { y: round(y(lowest)), text: formatRating(lowest) },
    high: { y: round(y(highest)), text: formatRating(highest) },
    plot: { left, top, right: width - right, bottom: height - bottom },
  };
}


/**
 * A player's rating over their rated results (the history endpoint's `items`, oldest first) as an
 * `<svg role="img">` named by its days and its summary: the line, a dot per result while they are
 * few enough to see, the lowest and highest value on the left axis, the first and last result's
 * day below. Colours come from the page's variables through `ratings.css`, so it reads in dark
 * mode too. Each point in words, with its day, is `ratingList`'s, beside it.
 */
export function ratingChart(items, { label = '' } = {}) {
  const summary = chartSummary(items);
  const dates = chartDates(items);
  const span = dates.first && dates.first !== 'Start' ? `, ${dates.first} to ${dates.last}` : dates.last ? `, ${dates.last}` : '';
  const name = label ? `${label}${span}: ${summary}` : summary;
  const values = ratingSeries(items);
  const { width, height } = CHART;
  const svg = s('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': name, class: 'rating-chart', focusable: 'false' },
    s('title', { text: name }));
  if (values.length === 0) return svg;
  const { points, path, low, high, plot } = chartGeometry(values);
  const labelX = plot.left - 6;
  const parts = [
    s('line', { class: 'axis', x1: plot.left, y1: plot.top, x2: plot.left, y2: plot.bottom }),
    s('line', { class: 'axis', x1: plot.left, y1: plot.bottom, x2: plot.right, y2: plot.bottom }),
    s('text', { class: 'label', x: labelX, y: high.y, 'text-anchor': 'end', 'dominant-baseline': 'middle', text: high.text }),
    low.text === high.text ? null
      : s('text', { class: 'label', x: labelX, y: low.y, 'text-anchor': 'end', 'dominant-baseline': 'middle', text: low.text }),
    s('text', { class: 'label', x: plot.left, y: CHART.height - 6, 'text-anchor': 'start', text: dates.first }),
    s('text', { class: 'label', x: plot.right, y: CHART.height - 6, 'text-anchor': 'end', text: dates.last }),
    s('path', { class: 'line', d: path }),
    // Dots only while they stay apart (about 5 units each).
    points.length <= 40 ? points.map(([cx, cy]) => s('circle', { class: 'dot', cx, cy, r: 3.5 })) : null,
  ];
  // `append` would write a list or a null as text: only elements go in.
  svg.append(...parts.flat().filter(Boolean));
  return svg;
}

/**
 * The chart's points in words, for a finger or a screen reader: each rated result, newest first,
 * its day (a link to the sheet or match) and what it did to the rating, behind one tap.
 */
export function ratingList(items) {
  if (!items || items.length === 0) return null;
  const newestFirst = [...items].reverse();
  return h('details', { class: 'rating-points' },
    h('summary', {}, `Each result, day by day (${items.length})`),
    h('ol', {}, newestFirst.map((item) => h('li', {},
      h('a', { href: `#${item.kind === 'sheet' ? 'sheet' : 'match'}=${encodeURIComponent(item.match_id)}` }, shortDate(item.finished_at) || 'Result'),
      `: ${pointText(item)}`))));
}

/** A head-to-head line for one game: "Ann ahead 3, Ben ahead 1, level 1". */
export function versusLine(row, player, opponent) {
  return `${player} ahead ${row.player_ahead}, ${opponent} ahead ${row.opponent_ahead}, level ${row.level}`;
}

/** One side of a shared result: "Ann 1st, 120 points (won)". */
export function sideText(side) {
  const score = typeof side.score === 'number' ? `, ${side.score.toLocaleString('en')} ${side.score === 1 ? 'point' : 'points'}` : '';
  const place = Number.isInteger(side.rank) ? ` ${ordinal(side.rank)}` : '';
  return `${side.name}${place}${score}${side.winner ? ' (won)' : ''}`;
}
