// Calls to the service: JSON in and out, problems (RFC 9457) thrown as `Refusal`, and a watcher
// that follows a document through its stream when the service has one, else by polling with ETag.
// Every call carries this phone's household key, when it has one (docs/households.md).

import { explain } from './messages.js';
import { household } from './store.js';

/** A refusal from the service (or `offline`, status 0): `problem` is its problem document, and
 * `message` the catalogue's plain words for it without player names (pass the problem to
 * `explain(problem, {names, game})` where the names are known). */
export class Refusal extends Error {
  constructor(problem) {
    super(explain(problem));
    this.problem = problem;
  }
}

/** The problem code an answer that is not a problem document stands for, by its status. */
const CODE_OF_STATUS = { 404: 'not_found', 408: 'request_timeout', 413: 'body_too_large', 429: 'rate_limited' };

/**
 * The headers that say who asks: the bearer `token`, if any, and the household key (this phone's,
 * or `householdKey` to try another one, as when joining). The one place a request gets them.
 */
export function whoHeaders({ token, householdKey } = {}) {
  const headers = {};
  const key = householdKey || (household() || {}).key;
  if (key) headers['household-key'] = key;
  if (token) headers.authorization = `Bearer ${token}`;
  return headers;
}

/** `{status, body, etag}`; a 4xx or 5xx problem is thrown as a `Refusal`. An `idempotencyKey`
 * makes a retried write safe: the service answers a repeat as it answered the first. */
export async function api(method, path, { body, token, householdKey, etag, idempotencyKey } = {}) {
  const headers = { accept: 'application/json', ...whoHeaders({ token, householdKey }) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (etag) headers['if-none-match'] = etag;
  if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch {
    throw new Refusal({ status: 0, code: 'offline', title: 'Offline', detail: 'The service cannot be reached.' });
  }
  if (response.status === 304) return { status: 304, body: null, etag };
  const text = await response.text();
  let parsed = null;
  try { parsed = text ? JSON.parse(text) : null; } catch { parsed = text; }
  if (!response.ok) {
    // Not a problem document (a proxy's error page, say): only its status is worth keeping.
    const problem = parsed && typeof parsed === 'object' ? parsed : { code: CODE_OF_STATUS[response.status] || (response.status >= 500 ? 'internal' : '') };
    problem.status ??= response.status;
    throw new Refusal(problem);
  }
  return { status: response.status, body: parsed, etag: response.headers.get('etag') };
}

/**
 * Makes `anchor` (a download link to an export) carry this phone's household key: a plain link
 * cannot send a header, so with a key a tap fetches the file and hands it to the phone as one.
 */
export function keyedDownload(anchor) {
  anchor.addEventListener('click', async (event) => {
    const headers = whoHeaders();
    if (!Object.keys(headers).length) return;
    event.preventDefault();
    const say = (text) => { document.getElementById('announce').textContent = text; };
    try {
      const response = await fetch(anchor.href, { headers, cache: 'no-store' });
      if (!response.ok) throw new Refusal(await response.json().catch(() => ({ status: response.status })));
      const url = URL.createObjectURL(await response.blob());
      const save = document.createElement('a');
      save.href = url;
      save.download = anchor.getAttribute('download') || '';
      save.click();
      setTimeout(() => URL.revokeObjectURL(url), 60000);
    } catch (error) {
      say(error instanceof Refusal ? error.message : explain({ status: 0, code: 'offline' }));
    }
  });
  return anchor;
}

export const get = (path, options) => api('GET', path, options).then((reply) => reply.body);
export const post = (path, body, options = {}) => api('POST', path, { ...options, body }).then((reply) => reply.body);

/**
 * Brings a BG Stats file (already parsed) into this phone's space: `POST /v1/imports/bgstats`,
 * answered with the import's report. With `dryRun`, only the report: what the import would add,
 * find here already, leave out and note, with nothing written.
 */
/**
 * A seat's own hand for the deal a table-randomness match waits for: `PUT
 * /v1/matches/{id}/hands/{seat}` with that seat's token (entering again replaces it). Answers
 * `{version, entered, mine}`: the seats whose hand is in, and the cards this seat entered.
 */
export const enterHand = (matchId, seat, cards, { token } = {}) =>
  api('PUT', `/v1/matches/${encodeURIComponent(matchId)}/hands/${seat}`, { body: { cards }, token }).then((reply) => reply.body);

/** Which seats have entered their hand for the deal awaited (`{version, entered, mine}`; `mine`
 * only for a seat's token): any of the match's tokens. */
export const enteredHands = (matchId, { token } = {}) => get(`/v1/matches/${encodeURIComponent(matchId)}/hands`, { token });

export const importBgStats = (file, { dryRun = false } = {}) => post(`/v1/imports/bgstats${dryRun ? '?dry_run=true' : ''}`, file);

const POLL_MS = 1500;
const QUIET_POLL_MS = 6000;

/**
 * Splits Server-Sent Events text into its complete events (each ends with a blank line) and the
 * rest, still arriving. An event is `{name, data}`; a heartbeat (a comment line, `: heartbeat`)
 * adds nothing to it, so a frame of comments alone is no event.
 */
export function sseEvents(text) {
  const events = [];
  const frames = text.replace(/\r\n?/g, '\n').split('\n\n');
  const rest = frames.pop();
  for (const frame of frames) {
    let name = 'message';
    const data = [];
    let fields = 0;
    for (const line of frame.split('\n')) {
      if (!line || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      fields += 1;
      if (field === 'event') name = value;
      else if (field === 'data') data.push(value);
    }
    if (fields) events.push({ name, data: data.join('\n') });
  }
  return { events, rest };
}

/**
 * Reads the stream at `streamPath` with `fetch`, which (unlike EventSource) can send the token and
 * household key, calling `onEvent()` for each complete event and `onClosed()` once when the stream
 * is refused or ends. Returns a stop function.
 */
function fetchStream(streamPath, headers, { onEvent, onClosed }) {
  const abort = new AbortController();
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    onClosed();
  };
  (async () => {
    const response = await fetch(streamPath, { headers: { accept: 'text/event-stream', ...headers }, cache: 'no-store', signal: abort.signal });
    if (!response.ok || !response.body) return;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      const { events, rest } = sseEvents(buffer + value);
      buffer = rest;
      if (events.length) onEvent(events);
    }
  })().catch(() => null).finally(() => { if (!abort.signal.aborted) close(); });
  return () => { closed = true; abort.abort(); };
}

/**
 * Follows the document at `path`, calling `onData(document)` whenever it changes and
 * `onError(refusal)` when it cannot be read. With `streamPath` each stream event triggers a fresh
 * read: through EventSource when the request needs no header, else (a token, a household key)
 * through `fetch`; when the stream is refused (404 before the service had streams) or closes,
 * polling takes over. Returns a stop function.
 */
export function follow(path, { token, streamPath, onData, onError, quiet = () => false }) {
  let stopped = false;
  let etag = null;
  let timer = null;
  let streaming = false;
  let stopStream = () => {};

  async function read() {
    try {
      const reply = await api('GET', path, { token, etag });
      if (stopped) return;
      if (reply.status !== 304) {
        etag = reply.etag;
        onData(reply.body);
      }
    } catch (error) {
      if (!stopped && onError) onError(error);
    }
  }

  function poll() {
    if (stopped) return;
    // One pending poll at a time, whoever (a finished read, a closed stream) asks for the next.
    clearTimeout(timer);
    // With a stream open, polling is only a safety net for events under names not listed below.
    const wait = document.hidden || quiet() || streaming ? QUIET_POLL_MS : POLL_MS;
    timer = setTimeout(async () => { await read(); poll(); }, wait);
  }

  // The stream's events (docs/live.md): a new log entry, the viewer's new view, the end.
  const NAMES = ['entry', 'view', 'end'];

  function openEventSource() {
    const source = new EventSource(streamPath);
    source.onmessage = read;
    source.onerror = () => {
      // CLOSED: refused or ended for good; CONNECTING is the browser's own retry.
      if (source.readyState === EventSource.CLOSED) {
        source.close();
        streaming = false;
        poll();
      }
    };
    for (const name of NAMES) source.addEventListener(name, read);
    return () => source.close();
  }

  function openFetchStream(headers) {
    return fetchStream(streamPath, headers, {
      // A burst of events (a catch-up) needs one read, not one each.
      onEvent: (events) => { if (events.some((event) => event.name === 'message' || NAMES.includes(event.name))) read(); },
      onClosed: () => { streaming = false; poll(); },
    });
  }

  read().then(() => {
    if (stopped) return;
    const headers = whoHeaders({ token });
    if (streamPath && Object.keys(headers).length === 0 && 'EventSource' in window) {
      streaming = true;
      stopStream = openEventSource();
    } else if (streamPath && 'ReadableStream' in window && 'TextDecoderStream' in window) {
      streaming = true;
      stopStream = openFetchStream(headers);
    }
    poll();
  });

  return () => {
    stopped = true;
    clearTimeout(timer);
    stopStream();
  };
}
