// The phone's storage for Node tests of the page's modules: a Map behind the few localStorage
// calls the page makes, emptied before each test. Import it for its effect.

import { beforeEach } from 'node:test';

const stored = new Map();
globalThis.localStorage = {
  getItem: (key) => (stored.has(key) ? stored.get(key) : null),
  setItem: (key, value) => stored.set(key, String(value)),
  removeItem: (key) => stored.delete(key),
};
beforeEach(() => stored.clear());
