// Small DOM helpers: elements are built with `h`, never from HTML strings, so names typed at the
// table can never become markup.

export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    if (key.startsWith('on')) element.addEventListener(key.slice(2), value);
    else if (key === 'class') element.className = value;
    else if (value === true) element.setAttribute(key, '');
    else element.setAttribute(key, String(value));
  }
  append(element, children);
  return element;
}

/** Replaces the children of `element`, skipping the absent ones as `h` does. */
const SVG = 'http://www.w3.org/2000/svg';

/** An SVG element, as `h` makes HTML ones; the attribute `text` is its text. */
export function svg(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === 'text') element.textContent = value;
    else element.setAttribute(key, String(value));
  }
  for (const child of children.flat()) if (child) element.append(child);
  return element;
}

export function replace(element, ...children) {
  element.replaceChildren();
  append(element, children);
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(element, child);
    else element.append(child instanceof Node ? child : String(child));
  }
}

let uniqueCounter = 0;
/** A fresh id for pairing labels, fields and their messages. */
export function uid(prefix) {
  uniqueCounter += 1;
  return `${prefix}-${uniqueCounter}`;
}

/** A labelled field: the label, the control and a slot for the service's refusal. */
export function field(labelText, control, hint) {
  control.id ||= uid('field');
  const error = h('p', { class: 'error', id: `${control.id}-error`, hidden: true });
  const hintElement = hint ? h('p', { class: 'hint', id: `${control.id}-hint` }, hint) : null;
  if (hintElement) control.setAttribute('aria-describedby', hintElement.id);
  return h('div', { class: 'field' }, h('label', { for: control.id }, labelText), hintElement, control, error);
}

/** Puts `message` next to `control` and moves focus there, as a screen reader expects. */
export function showFieldError(control, message) {
  const error = document.getElementById(`${control.id}-error`);
  control.setAttribute('aria-invalid', 'true');
  if (error) {
    error.textContent = message;
    error.hidden = false;
    const described = (control.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);
    if (!described.includes(error.id)) described.push(error.id);
    control.setAttribute('aria-describedby', described.join(' '));
  }
  control.focus();
}

export function clearFieldErrors(container) {
  for (const control of container.querySelectorAll('[aria-invalid]')) control.removeAttribute('aria-invalid');
  for (const error of container.querySelectorAll('.error')) {
    error.textContent = '';
    error.hidden = true;
  }
}

/** Says `text` to screen readers through the page's polite live region. */
export function announce(text) {
  const region = document.getElementById('announce');
  region.textContent = '';
  // A new text node after a tick makes readers repeat an identical message.
  setTimeout(() => { region.textContent = text; }, 50);
}

export function formatNumber(value) {
  return typeof value === 'number' ? value.toLocaleString('en') : String(value ?? '');
}

export function formatTime(iso) {
  if (!iso) return '';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

/** "lucky_symbol" → "lucky symbol". */
export function words(key) {
  return String(key).replaceAll('_', ' ');
}

// --- links another phone opens -------------------------------------------------------------

/** Whether `hostname` names this device itself (127.x.x.x, localhost, ::1): another phone that
 * opens such an address reaches itself, not this computer. */
export function isLoopback(hostname) {
  const host = String(hostname || '').toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

const NETWORK_ADDRESS = 'referee.network-address';

/**
 * What the host typed as this computer's address on the network (`192.168.1.20:8080`,
 * `http://my-pc.local:8080/`) as an origin, `http://192.168.1.20:8080`; without a port, the
 * page's own; null when it is not an address. `page` is the page's URL.
 */
export function networkOrigin(typed, page = location.href) {
  const text = String(typed || '').trim();
  if (!text) return null;
  const here = new URL(page);
  let url;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `${here.protocol}//${text}`);
  } catch {
    return null;
  }
  if (!/^https?:$/.test(url.protocol) || !url.hostname || url.username || url.password) return null;
  if (!url.port && !/:\d+(\/|$)/.test(text.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')) && here.port) url.port = here.port;
  return url.origin;
}

/** The address this phone keeps for its computer (an origin), or null. */
export function keptNetworkOrigin() {
  try { return localStorage.getItem(NETWORK_ADDRESS) || null; } catch { return null; }
}

function keepNetworkOrigin(origin) {
  try {
    if (origin) localStorage.setItem(NETWORK_ADDRESS, origin);
    else localStorage.removeItem(NETWORK_ADDRESS);
  } catch { /* private mode: for this visit only */ }
}

/** The origin the links for other phones start with: the page's own, or, where the page is open
 * at this device's own address, the network address the host typed (if any). */
export function linkOrigin() {
  return (isLoopback(location.hostname) && keptNetworkOrigin()) || location.origin;
}

/** `path` (`/#invite=…`) as a whole link for another phone to open or scan. */
export function linkForPhones(path) {
  return new URL(path, `${linkOrigin()}/`).href;
}

/**
 * Where the page is open at this device's own address (127.0.0.1, localhost), the warning to show
 * beside codes other phones scan, in a family's words, with a field for this computer's network
 * address: the codes then use it (`onChange()` redraws them). Null elsewhere. `level` is its
 * heading's level.
 */
export function phonesCannotReach(onChange, { level = 2 } = {}) {
  if (!isLoopback(location.hostname)) return null;
  const input = h('input', {
    type: 'text', name: 'network-address', autocomplete: 'off', spellcheck: 'false', inputmode: 'url',
    placeholder: '192.168.1.20:8080', value: keptNetworkOrigin() || '',
  });
  const using = h('p', { class: 'using' });
  const forget = h('button', { type: 'button', class: 'link' }, 'Forget this address');
  const title = h(`h${level}`, { id: uid('phones-warning') });
  function say() {
    const kept = keptNetworkOrigin();
    title.textContent = kept ? 'The codes use this computer’s network address' : 'Other phones cannot open these codes yet';
    using.textContent = kept ? `The codes now open ${kept}/ on the phones.` : '';
    using.hidden = !kept;
    forget.hidden = !kept;
  }
  const form = h('form', {
    class: 'network-address',
    novalidate: true,
    onsubmit(event) {
      event.preventDefault();
      clearFieldErrors(form);
      const origin = networkOrigin(input.value);
      if (!origin || isLoopback(new URL(origin).hostname)) {
        showFieldError(input, 'Type the address other phones use, such as 192.168.1.20:8080 (not 127.0.0.1 or localhost).');
        return;
      }
      keepNetworkOrigin(origin);
      input.value = origin;
      say();
      onChange();
      announce(`The codes now open ${origin}/.`);
    },
  },
  field('This computer’s network address', input, 'It is in the computer’s Wi-Fi or network settings, such as 192.168.1.20.'),
  h('button', { type: 'submit', class: 'secondary' }, 'Use this address'),
  using, forget);
  forget.addEventListener('click', () => {
    keepNetworkOrigin(null);
    input.value = '';
    say();
    onChange();
    announce('The codes open this computer’s own address again.');
    input.focus();
  });
  say();
  return h('section', { class: 'card phones-warning', 'aria-labelledby': title.id },
    title,
    h('p', {}, `This page is open at ${location.host}, an address only this computer knows: a phone that scans these codes finds nothing there.`),
    h('p', {}, 'To fix it, start the service with ', h('code', {}, 'BIND_ADDRESS=0.0.0.0:8080'),
      ', then open this page at the computer’s network address, such as ', h('code', {}, 'http://192.168.1.20:8080/'),
      '. Or type that address here, and the codes will use it:'),
    form);
}
