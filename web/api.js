// Calls to the service: JSON in and out, problems (RFC 9457) thrown as `Refusal`, and a watcher
// that follows a document through its stream when the service has one, else by polling with ETag.

import { explain } from './messages.js';

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

/** `{status, body, etag}`; a 4xx or 5xx problem is thrown as a `Refusal`. An `idempotencyKey`
 * makes a retried write safe: the service answers a repeat as it answered the first. */
export async function api(method, path, { body, token, etag, idempotencyKey } = {}) {
  const headers = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;
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

export const get = (path, options) => api('GET', path, options).then((reply) => reply.body);
export const post = (path, body, options = {}) => api('POST', path, { ...options, body }).then((reply) => reply.body);

const POLL_MS = 1500;
const QUIET_POLL_MS = 6000;

/**
 * Follows the document at `path`, calling `onData(document)` whenever it changes and
 * `onError(refusal)` when it cannot be read. With `streamPath` (and no token, which an
 * EventSource cannot send) each stream event triggers a fresh read; when the stream is refused
 * (404 before the service had streams) or closes, polling takes over. Returns a stop function.
 */
export function follow(path, { token, streamPath, onData, onError, quiet = () => false }) {
  let stopped = false;
  let etag = null;
  let timer = null;
  let source = null;

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
    const wait = document.hidden || quiet() || source ? QUIET_POLL_MS : POLL_MS;
    timer = setTimeout(async () => { await read(); poll(); }, wait);
  }

  read().then(() => {
    if (stopped) return;
    if (streamPath && !token && 'EventSource' in window) {
      source = new EventSource(streamPath);
      source.onmessage = read;
      source.onerror = () => {
        // CLOSED: refused or ended for good; CONNECTING is the browser's own retry.
        if (source && source.readyState === EventSource.CLOSED) {
          source.close();
          source = null;
          poll();
        }
      };
      // The stream's events (docs/live.md): a new log entry, the viewer's new view, the end.
      for (const name of ['entry', 'view', 'end']) {
        source.addEventListener(name, read);
      }
      poll();
    } else {
      poll();
    }
  });

  return () => {
    stopped = true;
    clearTimeout(timer);
    if (source) source.close();
  };
}
