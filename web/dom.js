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
