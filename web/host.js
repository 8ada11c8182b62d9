// Hosting a match from the page. STUB: being written.

import { h, replace } from './dom.js';

export async function hostView(main) {
  replace(main, h('h1', { tabindex: -1 }, 'Host a match'), h('p', {}, 'Coming soon.'));
}
