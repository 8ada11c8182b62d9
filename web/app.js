// The table page's entry point: a router over the URL fragment, so every screen has a link and
// nothing in the fragment (a seat token pasted into it, say) is ever sent to the service.
//   (empty)              start a sheet, list this phone's sheets
//   sheet=<id>           a sheet: kept here if this phone owns it, read-only otherwise
//   owner=<owner token>  (with sheet=<id>) a sheet handed over: remembers the token, then drops it
//                        from the address; a phone that keeps another token for the sheet (its
//                        only copy) is asked first, and keeps its own unless the owner says yes
//   match=<id>           a hosted match, as a spectator or, with a remembered seat token, a seat
//   token=<seat token>   (with match=<id>) remembers the token, then drops it from the address;
//                        a phone that keeps another seat's token for the match is asked first
//   look, player=<name>, board=<game>   look back
//   watch                open a match by id, or join one with an invite code
//   host                 host a match: game, players, options, randomness, invites
//   invite=<code>        shows the code's seat (a QR code's link); a tap redeems it, never the
//                        opening alone, so a link previewer that runs the page takes nothing
//   household=<id>&key=<key>   (alone, or with sheet=<id>) joins the household (household.js):
//                        the keys leave the address at once; a phone that belongs to another
//                        household is asked first

import { h, replace } from './dom.js';
import { homeView, sheetView } from './sheet.js';
import { matchView, watchForm, inviteView, confirmDialog } from './match.js';
import { lookBackView } from './history.js';
import { hostView } from './host.js';
import { rememberSeat, seatToken, setSheetToken, sheetToken, household } from './store.js';
import { explain } from './messages.js';
import { joinFromLink, refusedScreen } from './household.js';

const main = document.getElementById('main');
let stopCurrent = null;

function currentNav(params) {
  if (params.has('look') || params.has('player') || params.has('board')) return 'look';
  if (params.has('watch') || params.has('match') || params.has('host')) return 'watch';
  return 'home';
}

async function route() {
  if (stopCurrent) stopCurrent();
  stopCurrent = null;
  const params = new URLSearchParams(location.hash.slice(1));
  // First the household, whose key the rest of the link (a handed-over sheet) needs to be read.
  let sheetHousehold;
  if (params.has('household') && params.has('key')) {
    const { joined, problem } = await joinFromLink(params, confirmDialog);
    if (problem) {
      refusedScreen(main, problem);
      main.querySelector('h1').focus();
      return;
    }
    if (joined) sheetHousehold = household().id;
  }
  if (params.has('token') && params.has('match')) {
    const id = params.get('match');
    const offered = params.get('token');
    // The token stays on this phone; the address bar (and any link copied from it) loses it.
    history.replaceState(null, '', `#match=${encodeURIComponent(id)}`);
    params.delete('token');
    if (await mayTakeToken(seatToken(id), offered, SEAT_QUESTION)) rememberSeat(id, offered);
  }
  if (params.has('owner') && params.has('sheet')) {
    const id = params.get('sheet');
    const offered = params.get('owner');
    // The address loses the link's token whatever the answer, so a reload never asks again.
    history.replaceState(null, '', `#sheet=${encodeURIComponent(id)}`);
    params.delete('owner');
    if (await mayTakeToken(sheetToken(id), offered, SHEET_QUESTION)) setSheetToken(id, offered, null, sheetHousehold);
  }
  if (params.has('invite')) {
    try {
      await inviteView(main, params.get('invite'));
    } catch (error) {
      replace(main, h('h1', { tabindex: -1 }, 'This invite cannot be used'), h('p', { class: 'error', role: 'alert' }, explain(error.problem)),
        h('p', {}, h('a', { href: '#watch' }, 'Try another code')));
    }
    const heading = main.querySelector('h1');
    if (heading) heading.focus();
    return;
  }
  const nav = currentNav(params);
  for (const link of document.querySelectorAll('nav a')) {
    if (link.dataset.nav === nav) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  try {
    if (params.has('sheet')) stopCurrent = sheetView(main, params.get('sheet'));
    else if (params.has('match')) stopCurrent = matchView(main, params.get('match'));
    else if (params.has('host')) await hostView(main);
    else if (nav === 'look') await lookBackView(main, params);
    else if (nav === 'watch') await watchForm(main);
    else await homeView(main);
  } catch (error) {
    // The catalogue's words (a bug in the page, with no problem document, reads as a plain retry).
    const offline = error.problem && error.problem.code === 'offline';
    replace(main, h('h1', { tabindex: -1 }, offline ? 'No connection' : 'Something went wrong'), h('p', { class: 'error', role: 'alert' }, explain(error.problem)),
      h('p', {}, h('a', { href: '#' }, 'Back to the start')));
  }
  // A new screen: move focus to its heading so screen readers start there.
  const heading = main.querySelector('h1');
  if (heading && document.activeElement !== heading && !main.contains(document.activeElement)) heading.focus();
}

const SHEET_QUESTION = {
  title: 'Replace this phone’s key to the sheet?',
  text: 'This phone already keeps this sheet. The link you opened carries another key to it. '
    + 'Replace this phone’s key only if the sheet was just handed to you from another phone: '
    + 'if the link’s key is not the sheet’s, this phone can no longer write on it.',
  yes: 'Use the link’s key',
  no: 'Keep this phone’s key',
};

const SEAT_QUESTION = {
  title: 'Replace this phone’s seat in the match?',
  text: 'This phone already plays a seat in this match. The link you opened carries another '
    + 'seat’s key. Replace it only if you were just given that seat: if the link’s key is not '
    + 'a seat’s, this phone can no longer play.',
  yes: 'Use the link’s seat',
  no: 'Keep this phone’s seat',
};

/**
 * Whether a token a link carries may replace the one this phone `held`: at once when it holds
 * none (or the same one); otherwise only if the owner says so, since the token this phone keeps
 * may be the only copy, and anyone can make a link that carries some other token.
 */
async function mayTakeToken(held, offered, question) {
  if (!held || held === offered) return true;
  return confirmDialog(question);
}

window.addEventListener('hashchange', route);
route();

// Installable and usable offline: a service worker (web/sw.js) keeps the page's own files. It is
// told which files this visit loaded before it took control, so even the first visit is kept.
if ('serviceWorker' in navigator) {
  navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready).then((registration) => {
    const loaded = [location.origin + '/', ...performance.getEntriesByType('resource').map((entry) => entry.name)];
    if (registration.active) registration.active.postMessage({ cache: loaded });
  }).catch(() => {});
}
