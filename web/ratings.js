// Skill ratings in words and pictures: a rating to one decimal, "2nd of 7", who was ahead of whom,
// and a small chart of a player's rating over their rated results, drawn as inline SVG.
// Nothing here touches `document` until a chart is drawn, so Node's test runner imports this file
// as it is (tests/browser/ratings.test.mjs).

import { svg as s } from './dom.js';

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
 * `<svg role="img">` named by its summary: the line, a dot per result while they are few enough
 * to see, the lowest and highest value on the left axis, the first and last result below. Colours
 * come from the page's variables through `ratings.css`, so it reads in dark mode too.
 */
export function ratingChart(items, { label = '' } = {}) {
  const summary = chartSummary(items);
  const name = label ? `${label}: ${summary}` : summary;
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
    s('text', { class: 'label', x: plot.left, y: CHART.height - 6, 'text-anchor': 'start', text: 'Start' }),
    s('text', { class: 'label', x: plot.right, y: CHART.height - 6, 'text-anchor': 'end', text: plural(items.length, 'result') }),
    s('path', { class: 'line', d: path }),
    // Dots only while they stay apart (about 5 units each).
    points.length <= 40 ? points.map(([cx, cy]) => s('circle', { class: 'dot', cx, cy, r: 2.5 })) : null,
  ];
  // `append` would write a list or a null as text: only elements go in.
  svg.append(...parts.flat().filter(Boolean));
  return svg;
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
