// Skill ratings in words and pictures (web/ratings.js): the numbers a family reads and where the
// chart puts them. No service needed; the chart's drawing itself is checked in a browser by the
// page_ratings.py walk.
//
//   node --test tests/browser/ratings.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  formatRating, ordinal, placeText, ratingSeries, chartSummary, chartGeometry, CHART, versusLine, sideText,
  RATING_MEANING, ratingNote, shortDate, chartDates, pointText,
} from '../../web/ratings.js';

const rating = (value) => ({ mu: value + 25, sigma: 25 / 3, rating: value });
const point = (before, after) => ({ before: rating(before), after: rating(after) });

test('a rating shows to one decimal, a newcomer as 0.0, none as a dash', () => {
  assert.equal(formatRating(rating(14.23)), '14.2');
  assert.equal(formatRating(rating(0)), '0.0');
  assert.equal(formatRating(-0.04), '0.0');
  assert.equal(formatRating(-1.25), '-1.2');
  assert.equal(formatRating(3), '3.0');
  assert.equal(formatRating(null), '–');
  assert.equal(formatRating(undefined), '–');
});

test('places read as "2nd of 7"', () => {
  assert.deepEqual([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].map(ordinal),
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '23rd', '101st', '111th']);
  assert.equal(placeText(2, 7), '2nd of 7');
  assert.equal(placeText(null, 7), '–');
});

test('the chart starts from the rating before the first result', () => {
  const items = [point(0, 3.1), point(3.1, 2.4), point(2.4, 14.24)];
  assert.deepEqual(ratingSeries(items), [0, 3.1, 2.4, 14.24]);
  assert.deepEqual(ratingSeries([]), []);
  assert.equal(chartSummary(items), 'Rating from 0.0 to 14.2 over 3 results');
  assert.equal(chartSummary([point(0, 2)]), 'Rating from 0.0 to 2.0 over 1 result');
  assert.equal(chartSummary([]), 'No rated results');
});

test('the chart spans its plot: first result left, last right, highest on top', () => {
  const geometry = chartGeometry([0, 3.1, 2.4, 14.24]);
  const { plot, points } = geometry;
  assert.equal(points.length, 4);
  assert.equal(points[0][0], plot.left);
  assert.equal(points[3][0], plot.right);
  assert.equal(points[3][1], plot.top, 'the highest value is at the top');
  assert.equal(points[0][1], plot.bottom, 'the lowest value is at the bottom');
  for (const [x, y] of points) {
    assert.ok(x >= 0 && x <= CHART.width && y >= 0 && y <= CHART.height, `${x},${y} inside the viewBox`);
  }
  assert.match(geometry.path, /^M40 98 L/);
  assert.equal(geometry.high.text, '14.2');
  assert.equal(geometry.low.text, '0.0');
});

test('a flat or single-point chart stays inside, mid-height', () => {
  for (const values of [[0], [5, 5, 5]]) {
    const { points, plot } = chartGeometry(values);
    for (const [x, y] of points) {
      assert.ok(Number.isFinite(x) && Number.isFinite(y));
      assert.equal(y, (plot.top + plot.bottom) / 2);
    }
  }
});

test('head to head in words', () => {
  assert.equal(versusLine({ player_ahead: 3, opponent_ahead: 1, level: 1 }, 'Ann', 'Ben'), 'Ann ahead 3, Ben ahead 1, level 1');
  assert.equal(sideText({ name: 'Ann', rank: 1, score: 12000, winner: true }), 'Ann 1st, 12,000 points (won)');
  assert.equal(sideText({ name: 'Ben', rank: 2, score: null, winner: false }), 'Ben 2nd');
  assert.equal(sideText({ name: 'Zoé', rank: 1, score: 1, winner: true }), 'Zoé 1st, 1 point (won)');
});

test('the words about ratings never say a rating cannot be below 0', () => {
  // Lucky Dice after one second place: -1.0, under words that must allow it.
  assert.equal(formatRating(-1.04), '-1.0');
  assert.match(RATING_MEANING, /starts at 0\.0/);
  assert.match(RATING_MEANING, /below 0/);
  assert.doesNotMatch(RATING_MEANING, /starts at 0 and grows/);
  assert.equal(ratingNote(rating(-1.04), 1), 'A first guess from 1 result: below the 0.0 everyone starts at; good places will raise it.');
  assert.equal(ratingNote(rating(-0.04), 2), 'A first guess from 2 results: where everyone starts.');
  assert.equal(ratingNote(rating(6.3), 12), 'Settling, from 12 results: above the 0.0 everyone starts at.');
  assert.equal(ratingNote(null, 0), '');
});

test('the chart and its points carry their days', () => {
  const utc = { locale: 'en-GB', timeZone: 'UTC' };
  const at = (iso, before, after, rank = 2, players = 3) => ({ ...point(before, after), finished_at: iso, rank, players, kind: 'sheet', match_id: 'm' });
  assert.equal(shortDate('2025-04-03T20:15:00Z', utc), '3 Apr 2025');
  assert.equal(shortDate('not a date', utc), '');
  assert.equal(shortDate(null, utc), '');
  const season = [at('2025-03-02T19:00:00Z', 0, 3.1, 1), at('2025-04-03T21:00:00Z', 3.1, 2.4)];
  assert.deepEqual(chartDates(season, utc), { first: '2 Mar 2025', last: '3 Apr 2025' });
  // One evening: every result on one day, so the left end is the start.
  const evening = [at('2025-04-03T19:00:00Z', 0, -1.04), at('2025-04-03T21:00:00Z', -1.04, 1.2)];
  assert.deepEqual(chartDates(evening, utc), { first: 'Start', last: '3 Apr 2025' });
  assert.deepEqual(chartDates([], utc), { first: '', last: '' });
  assert.equal(pointText(evening[0]), '2nd of 3, rating 0.0 to -1.0');
  assert.equal(pointText({ ...point(1, 2) }), 'Played, rating 1.0 to 2.0');
});
