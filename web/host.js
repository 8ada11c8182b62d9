// Hosting a match from the page: the game, the players, the options, who shuffles and rolls,
// then one invite QR code per seat for the players' phones to scan.
//   #host         the form
//   #host=<id>    the invites of a match this phone hosts (after hosting, or a rematch)

import { get, post } from './api.js';
import { h, replace, field, clearFieldErrors, showFieldError, announce, linkForPhones, phonesCannotReach } from './dom.js';
import { games, gameTitle } from './sheet.js';
import { optionsEditor } from './options.js';
import { drawQr } from './qr.js';
import { rememberHosted, hostedMatch, seatToken, household } from './store.js';
import { ensureHousehold, followerLine } from './household.js';
import { explain } from './messages.js';
import { redeemInvite } from './match.js';

const possessive = (name) => `${name}’s`;

export async function hostView(main) {
  const params = new URLSearchParams(location.hash.slice(1));
  const id = params.get('host');
  if (id) return invitesView(main, id);
  return hostForm(main);
}

async function hostForm(main) {
  const here = household();
  if (here && here.role === 'reader') {
    // A phone that only follows its household hosts nothing: it says so.
    replace(main, h('h1', { tabindex: -1 }, 'Host a match'), h('p', { class: 'card follower' }, followerLine(here)));
    return;
  }
  const catalogue = await games();
  const gameSelect = h('select', { name: 'game' }, catalogue.map((game) => h('option', { value: game.slug }, `${game.title} (${game.min_players} to ${game.max_players} players)`)));
  const optionsSlot = h('div');
  const playerList = h('ol', { class: 'players' });
  const addButton = h('button', { type: 'button', class: 'secondary' }, 'Add a player');
  const formError = h('p', { class: 'error', tabindex: -1, hidden: true, role: 'alert' });
  let options = null;

  const currentGame = () => catalogue.find((game) => game.slug === gameSelect.value);
  const playerInputs = () => [...playerList.querySelectorAll('input')];

  function renumber() {
    const inputs = playerInputs();
    inputs.forEach((input, index) => {
      const label = playerList.querySelector(`label[for="${input.id}"]`);
      if (label) label.textContent = `Player ${index + 1}`;
    });
    for (const button of playerList.querySelectorAll('button.remove')) {
      const index = [...playerList.querySelectorAll('button.remove')].indexOf(button);
      button.setAttribute('aria-label', `Remove player ${index + 1}`);
      button.hidden = inputs.length <= currentGame().min_players;
    }
    addButton.hidden = inputs.length >= currentGame().max_players;
    // "Who deals first" offers the players at the table, by name.
    if (options) options.seats(inputs.map((input) => input.value.trim()));
  }

  function addPlayer(name = '') {
    const input = h('input', { type: 'text', name: 'player', autocomplete: 'off', maxlength: 64, value: name });
    const row = h('li', { class: 'player-row' }, field('Player', input),
      h('button', { type: 'button', class: 'link remove', onclick: () => { row.remove(); renumber(); } }, 'Remove'));
    playerList.append(row);
    renumber();
    return input;
  }

  function chooseGame() {
    const game = currentGame();
    options = optionsEditor(game, { forSheet: false });
    replace(optionsSlot, options.element);
    while (playerInputs().length < game.min_players) addPlayer();
    while (playerInputs().length > game.max_players) playerList.lastElementChild.remove();
    renumber();
  }
  gameSelect.addEventListener('change', chooseGame);
  playerList.addEventListener('input', renumber);
  addButton.addEventListener('click', () => addPlayer().focus());

  const server = h('input', { type: 'radio', name: 'randomness', value: 'server', checked: true, id: 'randomness-server' });
  const tableChance = h('input', { type: 'radio', name: 'randomness', value: 'table', id: 'randomness-table' });
  const randomness = h('fieldset', { class: 'randomness' },
    h('legend', {}, 'Cards and dice'),
    h('label', { for: server.id, class: 'choice' }, server, h('span', {},
      h('strong', {}, 'The service shuffles and rolls'),
      h('span', { class: 'hint' }, 'Each phone shows its own hand. No cards needed.'))),
    h('label', { for: tableChance.id, class: 'choice' }, tableChance, h('span', {},
      h('strong', {}, 'We use our own cards and dice and tell the service'),
      h('span', { class: 'hint' }, 'Each player taps in their own hand on their phone; the host taps in the cards everyone sees, and each draw and roll as it happens.'))));

  async function start(event) {
    event.preventDefault();
    clearFieldErrors(form);
    const inputs = playerInputs();
    const empty = inputs.find((input) => !input.value.trim());
    if (empty) {
      showFieldError(empty, 'Every player needs a name.');
      return;
    }
    const body = {
      game: gameSelect.value,
      seats: inputs.map((input) => ({ name: input.value.trim() })),
      options: options.read(),
      randomness: tableChance.checked ? 'table' : 'server',
      invites: true,
    };
    const names = body.seats.map((seat) => seat.name);
    submit.disabled = true;
    try {
      // A phone's first match makes its household, as its first sheet would.
      await ensureHousehold();
      const created = await post('/v1/matches', body);
      rememberHosted(created.match, created.owner_token, created.invites || []);
      location.hash = `host=${created.match.id}`;
    } catch (error) {
      submit.disabled = false;
      const problem = error.problem || { detail: error.message };
      const message = error.problem ? explain(problem, { names, game: body.game }) : error.message;
      const params = problem.params || {};
      let control = null;
      if (params.option) control = options.control(params.option);
      else if (Number.isInteger(params.seat)) control = inputs[params.seat];
      else if (params.name) {
        // A name given twice: the later seat is the one to change.
        const same = inputs.filter((input) => input.value.trim().toLowerCase() === String(params.name).toLowerCase());
        control = same[same.length - 1] || null;
      }
      if (control && control.closest('details')) control.closest('details').open = true;
      if (control) showFieldError(control, message);
      else {
        formError.textContent = message;
        formError.hidden = false;
        formError.focus();
      }
      announce(message);
    }
  }

  const submit = h('button', { type: 'submit', class: 'big' }, 'Host the match');
  const form = h('form', { class: 'card', onsubmit: start, 'aria-labelledby': 'host-title' },
    h('h2', { id: 'host-title' }, 'New match'),
    field('Game', gameSelect),
    h('fieldset', {}, h('legend', {}, 'Players, clockwise'), playerList, addButton),
    optionsSlot,
    randomness,
    formError,
    submit);
  chooseGame();
  replace(main,
    h('h1', { tabindex: -1 }, 'Host a match'),
    h('p', { class: 'lead' }, 'Everyone plays from their own phone: after this, each player scans their own code.'),
    form);
}

/** Draws the invite's QR code on `canvas`, for the address other phones reach (the link it holds
 * stays on the canvas as `data-link`). */
export function drawInvite(canvas, invite) {
  const link = linkForPhones(invite.join);
  canvas.dataset.link = link;
  drawQr(canvas, link);
}

function inviteCard(invite, onTake) {
  const canvas = h('canvas', { class: 'invite-qr', role: 'img', 'aria-label': `Invite code for ${invite.name}, to scan` });
  drawInvite(canvas, invite);
  const status = h('p', { class: 'invite-status', 'data-code': invite.code }, 'Waiting for a phone to scan it.');
  const error = h('p', { class: 'error', role: 'alert', hidden: true });
  const take = h('button', {
    type: 'button',
    class: 'secondary',
    async onclick() {
      take.disabled = true;
      try {
        await onTake(invite);
      } catch (failure) {
        take.disabled = false;
        error.textContent = failure.problem ? explain(failure.problem, {}) : failure.message;
        error.hidden = false;
        announce(error.textContent);
      }
    },
  }, `Play ${possessive(invite.name)} seat on this phone`);
  return h('li', { class: 'card invite-card' },
    h('h2', { id: `invite-${invite.seat}` }, invite.name),
    canvas,
    h('p', { class: 'hint' }, 'No camera? Type this code on the Watch screen: ', h('span', { class: 'code' }, invite.code)),
    status, take, error);
}

async function invitesView(main, id) {
  await games();
  const hosted = hostedMatch(id);
  const match = await get(`/v1/matches/${encodeURIComponent(id)}`);
  const title = `${gameTitle(match.game)}: ${match.seats.map((seat) => seat.name).join(', ')}`;
  if (!hosted) {
    replace(main, h('h1', { tabindex: -1 }, title),
      h('p', {}, 'This phone did not host this match, so it has no invites to show. Ask the host for yours.'),
      h('p', {}, h('a', { class: 'button', href: `#match=${id}` }, 'Watch the match')));
    return;
  }
  const invites = hosted.invites || [];
  const playing = seatToken(id);
  const list = h('ul', { class: 'plain invite-list' }, invites.map((invite) => inviteCard(invite, (chosen) => redeemInvite(chosen.code))));
  // Opened at 127.0.0.1 or localhost, the codes would send the phones to themselves: said beside
  // them, with a field for the computer's network address that the codes then use.
  const redraw = () => list.querySelectorAll('canvas.invite-qr').forEach((canvas, index) => drawInvite(canvas, invites[index]));
  replace(main,
    h('h1', { tabindex: -1 }, title),
    h('p', { class: 'lead' }, 'Each player scans their own code with their phone’s camera and taps to take their seat. A code works once.'),
    playing ? h('p', { class: 'muted' }, 'This phone already plays a seat in this match.') : null,
    phonesCannotReach(redraw),
    list,
    h('p', {}, h('a', { class: 'button big', href: `#match=${id}` }, 'Open the table')));

  // Who has taken a seat, while this screen shows.
  async function checkTaken() {
    for (const status of list.querySelectorAll('.invite-status')) {
      try {
        const invite = await get(`/v1/invites/${encodeURIComponent(status.dataset.code)}`);
        const text = invite.redeemed ? `${invite.name} has taken the seat.` : 'Waiting for a phone to scan it.';
        if (status.textContent !== text) {
          status.textContent = text;
          status.classList.toggle('taken', invite.redeemed);
          if (invite.redeemed) {
            announce(text);
            const button = status.parentElement.querySelector('button');
            if (button) button.hidden = true;
          }
        }
      } catch { /* a re-issued code is unknown now: leave it */ }
    }
  }
  await checkTaken();
  const timer = setInterval(() => {
    if (!list.isConnected) { clearInterval(timer); return; }
    checkTaken();
  }, 3000);
}
