// Bringing plays in from BG Stats (POST /v1/imports/bgstats), from Look back: the family picks the
// file BG Stats wrote, sees first what would come in (`?dry_run=true`: the same report, nothing
// written), says who each new name of the file is (one of the household's players or a new one),
// then brings the plays in. A choice of who is who rewrites the file's `players[].name` before it
// is sent, and the preview is asked again, so its numbers are always those the import would give.
// The file is read on the phone; only its JSON is sent, in this phone's household (api.js).

import { get, importBgStats } from './api.js';
import { h, replace, field, showFieldError, clearFieldErrors, formatNumber } from './dom.js';
import { explain } from './messages.js';
import { household } from './store.js';
import { ensureHousehold, possessive } from './household.js';
import { games, gameTitle } from './sheet.js';

/** How many rows of each game's leaderboard are read for the household's players (its most). */
const BOARD_ROWS = 100;

// --- names that look alike ---------------------------------------------------------------------

/** A name as a family reads it: without case, accents, invisible characters or extra spaces. */
export function foldName(name) {
  return String(name ?? '').normalize('NFKD').replace(/\p{M}/gu, '').replace(/\p{Cf}/gu, '')
    .toLocaleLowerCase('en').replace(/\s+/g, ' ').trim();
}

/** A name as the service tells players apart: case, width and invisible characters aside (an
 * accent makes another name there). */
const nameKey = (name) => String(name ?? '').normalize('NFKC').replace(/\p{Cf}/gu, '').toLocaleLowerCase('en').trim();

/** Levenshtein distance: the fewest letters added, removed or changed to turn `a` into `b`. */
export function editDistance(a, b) {
  const [x, y] = [[...a], [...b]];
  let row = Array.from({ length: y.length + 1 }, (_, index) => index);
  for (let i = 1; i <= x.length; i += 1) {
    const next = [i];
    for (let j = 1; j <= y.length; j += 1) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[y.length];
}

/**
 * How alike two names look, lower is closer, or null when they do not: 0 the same but for case
 * and accents (Zoe, Zoé), 1 one begins the other (Leo, Leon), 1 + the letters changed otherwise
 * (Jon, Joan). Short names differ by one letter at most (three to five letters) or not at all
 * (one or two): Ann and Ben are two people, though two letters apart.
 */
export function likeness(one, other) {
  const [a, b] = [foldName(one), foldName(other)];
  if (!a || !b) return null;
  if (a === b) return 0;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if ([...short].length >= 2 && long.startsWith(short)) return 1;
  const length = [...short].length;
  const allowed = length >= 6 ? 2 : length >= 3 ? 1 : 0;
  const distance = editDistance(a, b);
  return distance <= allowed ? 1 + distance : null;
}

/** The known name most like `name` (ties: the closer length, then the alphabet), or null. */
export function lookAlike(name, known) {
  let best = null;
  for (const candidate of known) {
    const score = likeness(name, candidate);
    if (score === null) continue;
    const gap = Math.abs([...candidate].length - [...name].length);
    if (!best || score < best.score || (score === best.score && (gap < best.gap || (gap === best.gap && candidate.localeCompare(best.name) < 0)))) {
      best = { name: candidate, score, gap };
    }
  }
  return best ? best.name : null;
}

// --- the file ----------------------------------------------------------------------------------

/**
 * The file with each player the family said is someone already here renamed so (`choices`: the
 * service's key of the name as the file writes it → the name to send). BG Stats' anonymous
 * player is never renamed. The plays are shared with the original, not copied.
 */
export function mapFile(file, choices) {
  if (!choices.size || !Array.isArray(file.players)) return file;
  return {
    ...file,
    players: file.players.map((player) => {
      if (!player || typeof player !== 'object' || player.isAnonymous) return player;
      const chosen = choices.get(nameKey(player.name));
      return chosen ? { ...player, name: chosen } : player;
    }),
  };
}

/** Why a parsed file cannot be a BG Stats export, in plain words, or null when it may be one. */
function notAnExport(file) {
  if (!file || typeof file !== 'object' || Array.isArray(file) || !Array.isArray(file.plays)) {
    return 'This file holds no plays from BG Stats. In BG Stats, choose Export data, and pick the file it saves.';
  }
  if (!file.plays.length) return 'This file holds no plays: there is nothing to bring in.';
  return null;
}

/** "March 1, 2025" from BG Stats' "2025-03-01 20:00:00" (UTC), or the text as it is. */
function playDay(text) {
  const found = /^(\d{4})-(\d{2})-(\d{2})/.exec(String(text ?? ''));
  if (!found) return String(text ?? '');
  const date = new Date(Date.UTC(Number(found[1]), Number(found[2]) - 1, Number(found[3])));
  return date.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

/** One play of the file in words: its game, day and players ("Lucky Jack, March 1, 2025: Mum, Leo"). */
function playWords(file, reported) {
  const play = (file.plays || [])[reported.index] || {};
  const players = new Map((file.players || []).filter((p) => p && typeof p === 'object').map((p) => [p.id, p.name]));
  const listed = (file.games || []).find((game) => game && game.id === play.gameRefId);
  const title = reported.game ? gameTitle(reported.game) : (listed && listed.name) || 'A game';
  const names = (Array.isArray(play.playerScores) ? play.playerScores : []).map((score) => players.get(score && score.playerRefId)).filter(Boolean);
  return `${title}, ${playDay(play.playDate)}${names.length ? `: ${names.join(', ')}` : ''}`;
}

// --- the report in words -----------------------------------------------------------------------

const plays = (count) => `${formatNumber(count)} ${count === 1 ? 'play' : 'plays'}`;

/** Why plays were left out, by the service's reason: a heading in the family's words. */
const LEFT_OUT = {
  unknown_game: 'Games other than the five kept here',
  teams_not_supported: 'Played in teams or all together',
  ignored_play: 'Left out of BG Stats’ own statistics',
  score_not_whole: 'Without a whole-number score for everyone',
  score_out_of_range: 'With a score too large to keep',
  play_date_out_of_range: 'With a date that cannot be right',
  invalid_player_name: 'With a player without a usable name',
  duplicate_player: 'With the same player twice',
};

/** What to check in a play brought in, by the service's note. */
const CHECK = {
  ranks_contradict_scores: 'The places in the file do not follow its scores.',
};

function counts(report, dry) {
  const lines = [];
  lines.push(dry ? `${plays(report.created)} would be added.` : `${plays(report.created)} added.`);
  if (report.matched) lines.push(`${plays(report.matched)} ${report.matched === 1 ? 'is' : 'are'} here already.`);
  if (report.conflicts) {
    lines.push(`${plays(report.conflicts)} ${report.conflicts === 1 ? 'is' : 'are'} here already with other players or scores: the ${report.conflicts === 1 ? 'one' : 'ones'} here ${dry ? 'would stay' : 'stay'} as ${report.conflicts === 1 ? 'it is' : 'they are'}.`);
  }
  if (report.skipped) lines.push(`${plays(report.skipped)} left out.`);
  return lines;
}

/** The plays left out, grouped by why, each reason's sentences with how many plays each. */
function leftOut(report) {
  const groups = new Map();
  for (const play of report.plays || []) {
    if (play.outcome !== 'skipped') continue;
    const code = (play.reason && play.reason.code) || '';
    const detail = (play.reason && play.reason.detail) || '';
    if (!groups.has(code)) groups.set(code, new Map());
    const details = groups.get(code);
    details.set(detail, (details.get(detail) || 0) + 1);
  }
  if (!groups.size) return null;
  return h('section', { class: 'left-out', 'aria-label': 'Left out' },
    h('h4', {}, 'Left out'),
    h('ul', { class: 'plain' }, [...groups].map(([code, details]) => {
      const total = [...details.values()].reduce((sum, count) => sum + count, 0);
      return h('li', {},
        h('p', { class: 'reason' }, `${LEFT_OUT[code] || 'For another reason'}: ${plays(total)}`),
        h('ul', { class: 'details' }, [...details].filter(([detail]) => detail)
          .map(([detail, count]) => h('li', {}, count > 1 ? `${plays(count)}: ${sentence(detail)}` : sentence(detail)))));
    })));
}

/** The plays here already with other players or scores: which, in words. */
function conflicting(report, file) {
  const found = (report.plays || []).filter((play) => play.outcome === 'conflict');
  if (!found.length) return null;
  return h('section', { class: 'conflicts', 'aria-label': 'Here with other players or scores' },
    h('h4', {}, 'Here with other players or scores'),
    h('ul', { class: 'plain' }, found.map((play) => h('li', {}, playWords(file, play)))));
}

/** The plays to check: brought in as the file has them, with something that looks wrong. */
function toCheck(report, file) {
  const noted = (report.plays || []).filter((play) => play.outcome !== 'skipped' && Array.isArray(play.notes) && play.notes.length);
  if (!noted.length) return null;
  return h('section', { class: 'check-these', 'aria-label': 'Check these' },
    h('h4', {}, 'Check these'),
    h('ul', { class: 'plain' }, noted.map((play) => h('li', {},
      h('p', { class: 'play' }, playWords(file, play)),
      play.notes.map((note) => h('p', { class: 'note-line' }, CHECK[note.code] ? `${CHECK[note.code]} ${sentence(note.detail)}` : sentence(note.detail)))))));
}

/** The service's sentence with a capital and a full stop. */
function sentence(text) {
  const words = String(text ?? '').trim();
  if (!words) return '';
  return `${words[0].toLocaleUpperCase('en')}${words.slice(1)}${/[.!?]$/.test(words) ? '' : '.'}`;
}

/** The plays added, each a link to its result. */
function added(report, file) {
  const made = (report.plays || []).filter((play) => play.outcome === 'created' && play.id);
  if (!made.length) return null;
  return h('section', { class: 'added', 'aria-labelledby': 'import-added-title' },
    h('h4', { id: 'import-added-title' }, 'Added'),
    h('ul', { class: 'plain' }, made.map((play) => h('li', {}, h('a', { href: `#sheet=${encodeURIComponent(play.id)}` }, playWords(file, play))))));
}

// --- the card ----------------------------------------------------------------------------------

/** The five games' leaderboards' players in this phone's space: the household's known players. */
async function knownPlayers() {
  const catalogue = await games();
  const boards = await Promise.all(catalogue.map((game) => get(`/v1/games/${encodeURIComponent(game.slug)}/leaderboard?limit=${BOARD_ROWS}`)
    .catch(() => [])));
  return boards.flat().map((row) => row && row.player).filter(Boolean);
}

/**
 * The players of the plays found here already with other players or scores, that the report
 * does not name (it names those of the plays it adds or finds): the same file brought in again
 * after Leo was taken for Leon differs from what is here until Leo is Leon again, so Leo must be
 * offered too. Known by their name among `known`, as the service would.
 */
function conflictPlayers(file, report, known) {
  const listed = new Set((report.players || []).map((player) => nameKey(player.name)));
  const byId = new Map((file.players || []).filter((player) => player && typeof player === 'object').map((player) => [player.id, player]));
  const found = [];
  for (const play of report.plays || []) {
    if (play.outcome !== 'conflict') continue;
    const scores = (file.plays[play.index] || {}).playerScores;
    for (const score of Array.isArray(scores) ? scores : []) {
      const player = byId.get(score && score.playerRefId);
      if (!player || typeof player.name !== 'string' || listed.has(nameKey(player.name))) continue;
      listed.add(nameKey(player.name));
      const anonymous = player.isAnonymous === true;
      const knownAs = anonymous ? null : known.find((name) => nameKey(name) === nameKey(player.name)) || null;
      found.push({ name: player.name, known_as: knownAs, anonymous });
    }
  }
  return found;
}

/** Names without repeats (as the service tells them apart), in the alphabet's order. */
function distinct(names) {
  const seen = new Map();
  for (const name of names) if (!seen.has(nameKey(name))) seen.set(nameKey(name), name);
  return [...seen.values()].sort((a, b) => a.localeCompare(b));
}

/**
 * Look back's card "Bring in plays from BG Stats". `onImported()` runs once plays came in (Look
 * back reads its lists again); `onSpaceChange()` when choosing a file made this phone a household.
 */
export function importCard({ onImported = () => {}, onSpaceChange = () => {} } = {}) {
  const mine = household();
  const summary = h('summary', {}, 'Bring in plays from BG Stats');
  if (mine && mine.role !== 'owner') {
    return h('details', { class: 'card bgstats-import' }, summary,
      h('p', {}, `This phone follows ${possessive(mine.name)} games: plays from BG Stats are brought in on a phone that keeps score.`));
  }

  const input = h('input', { type: 'file', name: 'bgstats-file', accept: '.json,.bgsplay,application/json' });
  const status = h('p', { class: 'status-line', role: 'status' });
  const preview = h('div', { class: 'import-report' });
  const people = h('div', { class: 'import-people' });
  const bring = h('button', { type: 'button' }, 'Bring them in');
  const nothing = h('p', { class: 'muted', hidden: true }, 'Nothing new to bring in.');
  const actions = h('div', { class: 'import-actions', hidden: true }, nothing, h('p', { class: 'buttons' }, bring));
  const failure = h('p', { class: 'error', role: 'alert', hidden: true });

  // One file at a time: `file` as read, `choices` who its new names are, `asked` counts previews
  // so that only the latest one's answer is shown.
  let file = null;
  let choices = new Map();
  let asked = 0;
  let pending = 0;

  const fail = (message) => {
    failure.textContent = message;
    failure.hidden = false;
  };
  const refused = (error) => {
    const problem = (error && error.problem) || {};
    if (problem.code === 'invalid_import') showFieldError(input, explain(problem));
    else if (problem.code === 'body_too_large') fail('This file is larger than the service takes at once. Export fewer plays from BG Stats (a year at a time, say) and bring each file in.');
    else fail(explain(problem));
  };
  const reset = () => {
    clearFieldErrors(card);
    failure.hidden = true;
    replace(preview);
    replace(people);
    actions.hidden = true;
    status.textContent = '';
  };

  /** Shows a report: a preview (with "Bring them in") or what came in. */
  function show(report, sent, dry) {
    replace(preview,
      h('h3', {}, dry ? 'What would come in' : 'What came in'),
      h('ul', { class: 'counts' }, counts(report, dry).map((line) => h('li', {}, line))),
      dry ? null : added(report, sent),
      toCheck(report, sent),
      conflicting(report, sent),
      leftOut(report));
    actions.hidden = !dry;
    nothing.hidden = report.created > 0;
    bring.hidden = report.created === 0;
  }

  /** A dry run of the file as the family's choices make it; resolves to its report, or to null
   * when a newer one was asked meanwhile. A service that has no dry run brings the plays in at
   * once (its created plays come with their owner tokens): then that is said. */
  async function ask(sent) {
    asked += 1;
    const turn = asked;
    pending += 1;
    bring.disabled = true;
    try {
      const report = await importBgStats(sent, { dryRun: true });
      return turn === asked ? report : null;
    } finally {
      pending -= 1;
      bring.disabled = pending > 0;
    }
  }
  const broughtIn = (report) => (report.plays || []).some((play) => play.outcome === 'created' && play.owner_token);

  function finished(report, sent) {
    show(report, sent, false);
    replace(people);
    input.value = '';
    file = null;
    status.textContent = `${plays(report.created)} brought in.`;
    onImported(report);
  }

  /** Who is who: a choice for each new name of the file, the others said in a line. */
  function peopleList(players, known) {
    const claimed = new Set(players.filter((player) => player.known_as).map((player) => nameKey(player.known_as)));
    // The new names first (each a choice), then those already here, then the anonymous player.
    const rank = (player) => (player.anonymous === true ? 2 : player.known_as ? 1 : 0);
    const items = [...players].sort((a, b) => rank(a) - rank(b)).map((player) => {
      if (player.anonymous === true) return h('li', {}, `${player.name}: kept in the plays, never rated.`);
      if (player.known_as) {
        return h('li', {}, nameKey(player.known_as) === nameKey(player.name) && player.known_as === player.name
          ? `${player.name}: already here.` : `${player.name}: already here as ${player.known_as}.`);
      }
      const free = known.filter((name) => !claimed.has(nameKey(name)));
      const alike = lookAlike(player.name, free);
      if (alike) {
        claimed.add(nameKey(alike));
        choices.set(nameKey(player.name), alike);
      }
      if (!known.length) return h('li', {}, `${player.name}: a new player.`);
      const select = h('select', { name: 'who' },
        h('option', { value: '' }, 'a new player'),
        known.map((name) => h('option', { value: name }, name)));
      select.value = alike || '';
      select.addEventListener('change', () => choose(player.name, select));
      return h('li', {}, field(`${player.name} is`, select));
    });
    return [
      h('h3', {}, 'Who is who'),
      h('p', { class: 'hint' }, 'Players are matched by how they are written. For each new one, choose who they are here: someone already here, or a new player.'),
      h('ul', { class: 'plain people' }, items),
    ];
  }

  /** A new choice for `name`: the preview is asked again, so its numbers stay exact. */
  async function choose(name, select) {
    if (select.value) choices.set(nameKey(name), select.value);
    else choices.delete(nameKey(name));
    if (!file) return;
    const sent = mapFile(file, choices);
    failure.hidden = true;
    status.textContent = 'Counting again…';
    try {
      const report = await ask(sent);
      if (!report) return;
      if (broughtIn(report)) {
        finished(report, sent);
        return;
      }
      show(report, sent, true);
      status.textContent = `${name} counted as ${select.value || 'a new player'}: ${plays(report.created)} would be added.`;
    } catch (error) {
      status.textContent = '';
      refused(error);
    }
  }

  input.addEventListener('change', async () => {
    reset();
    file = null;
    choices = new Map();
    asked += 1;
    const chosen = input.files && input.files[0];
    if (!chosen) return;
    let parsed;
    try {
      parsed = JSON.parse(await chosen.text());
    } catch {
      showFieldError(input, 'This file could not be read: it is not the file BG Stats writes. In BG Stats, choose Export data, and pick the file it saves.');
      return;
    }
    const wrong = notAnExport(parsed);
    if (wrong) {
      showFieldError(input, wrong);
      return;
    }
    status.textContent = 'Reading the plays…';
    try {
      const had = household();
      await ensureHousehold();
      if (!had && household()) onSpaceChange();
      const [first, known] = await Promise.all([ask(parsed), knownPlayers()]);
      if (!first) return;
      if (broughtIn(first)) {
        finished(first, parsed);
        return;
      }
      file = parsed;
      const everyone = distinct([...known, ...(first.players || []).map((player) => player.known_as).filter(Boolean)]);
      replace(people, peopleList([...(first.players || []), ...conflictPlayers(parsed, first, everyone)], everyone));
      // A look-alike chosen for someone changes the plays: the numbers shown are those of the
      // file as it would be sent.
      let report = first;
      let sent = parsed;
      if (choices.size) {
        sent = mapFile(parsed, choices);
        report = await ask(sent);
        if (!report) return;
      }
      show(report, sent, true);
      status.textContent = report.created ? 'Nothing is brought in until you tap “Bring them in”.' : 'Nothing would be added.';
    } catch (error) {
      status.textContent = '';
      refused(error);
    }
  });

  bring.addEventListener('click', async () => {
    if (!file) return;
    const sent = mapFile(file, choices);
    bring.disabled = true;
    failure.hidden = true;
    asked += 1;
    status.textContent = 'Bringing the plays in…';
    try {
      const report = await importBgStats(sent);
      finished(report, sent);
    } catch (error) {
      status.textContent = '';
      refused(error);
    } finally {
      bring.disabled = false;
    }
  });

  const card = h('details', { class: 'card bgstats-import' }, summary,
    h('p', { class: 'hint' }, 'In BG Stats, choose Export data and keep the file on this phone. Plays of the five games kept here come in as finished games with their scores; you see what would come in first.'),
    field('BG Stats file', input),
    status,
    failure,
    preview,
    people,
    actions);
  return card;
}
