// The page's words for every problem the service can send, by problem `code` and `params`, never
// by its English `detail`. One catalogue per language, ready for a translator:
//   - each key of a language is a problem code (a unit test in `src/http/page_messages.rs` checks
//     that every code the service can send has one: keep one code per line, as `code: ...`);
//   - a value is a template with named `{placeholders}`, or an object of alternatives chosen by
//     the problem's parameters (see `ALTERNATIVE` below; `_` is the usual one);
//   - keys starting with `_` are the catalogue's own words (seats, kinds of chance, tools...).
// Placeholders: every parameter of the problem by its name, seats as player names (`{seat}`) and
// numbers counted from 1 (`{seat_number}`), cards through `cardLabel`, other words through `_words`.

import { cardLabel } from './cards.js';
import { showFieldError, announce } from './dom.js';

export const CATALOGUE = {
  en: {
    // The catalogue's own words.
    _player: 'Player {number}',
    _you: 'you',
    _and: '{first} and {last}',
    _round: 'Round {round}: {message}',
    _stack: '{owner}’s {kind} pile',
    _unknown: 'Something went wrong. Try again, and if it keeps happening, reload the page.',
    _words: {
      // Kinds of chance outcome.
      deal: 'the deal', draw: 'a drawn card', flip: 'the flipped cards', roll: 'a dice roll',
      coasters: 'the coasters', lucky_symbol: 'the lucky symbol',
      // Luck Plus: how a group matches.
      top: 'the top card', pair: 'a pair', split: 'a split', total: 'the dice total',
      doubles: 'doubles', single_die: 'one die',
      // Lucky Luau tools and colours.
      knife: 'Knife', hook: 'Hook', spacer: 'Spacer',
      yellow: 'yellow', red: 'red', blue: 'blue', pink: 'pink',
      // Plus & Minus piles.
      plus: 'plus', minus: 'minus',
      // Lucky Dice symbols.
      clover: 'clover', pig: 'pig', cat: 'cat', penny: 'penny', horseshoe: 'horseshoe', hamsa: 'hamsa',
    },

    // The page's own: the service could not be reached.
    offline: 'The service cannot be reached right now. Check the phone’s connection and try again.',

    // The request could not be read: the page sent something wrong, not the family.
    malformed_body: 'The page sent something the service could not read. Reload the page and try again.',
    unsupported_charset: 'The page sent something the service could not read. Reload the page and try again.',
    invalid_path: 'That address is not right. Go back to the start and open it again.',
    invalid_move: 'That move could not be read. Reload the page and try again.',
    invalid_options: {
      _: 'This setting cannot be used with the others. Change it and try again.',
      max: 'This setting can be at most {max}. Lower it and try again.',
      none: 'These game settings cannot be used together. Change them and try again.',
    },
    invalid_state: 'The table could not be read. Reload the page.',
    invalid_tally: 'This round could not be read. Check what you entered and try again.',
    invalid_chance: 'That card, dice or draw could not be read. Check it and try again.',
    invalid_seed: 'That shuffle number cannot be used. Leave it empty or use a whole number.',
    invalid_log: 'The saved game could not be replayed. It may come from another version of the service.',
    invalid_query: 'That search could not be read. Change it and try again.',
    invalid_last_event_id: 'The live view lost its place. Reload the page to catch up.',
    invalid_if_match: 'The page sent something the service could not read. Reload the page and try again.',
    conflicting_preconditions: 'The page sent something the service could not read. Reload the page and try again.',
    invalid_limit: 'That list cannot be shown in one go. Reload the page and try again.',
    invalid_cursor: 'The list lost its place. Go back and open it again.',
    invalid_import: 'That file could not be read as a BG Stats export. Check it is the file BG Stats wrote and try again.',
    invalid_player: 'That player name cannot be looked up. Check it and try again.',
    same_player: 'That is the same player twice. Type someone else to compare them with.',
    invalid_invite_code: 'That is not an invite code. A code has 10 letters and digits: check it and type it again.',
    invalid_idempotency_key: 'The page sent something the service could not read. Reload the page and try again.',

    // Who is asking.
    invalid_token: 'This phone is not allowed to do that here. Open the link you were given again.',
    wrong_seat: 'This phone holds another player’s place. Only that player can do this.',
    owner_only: 'Only the phone that started this can do that. Ask whoever started it.',
    not_your_chance: 'Someone else reports this card or roll. Wait for them.',
    not_the_reporter: 'Only whoever reported it, or the phone that started the game, can correct it.',

    // What is asked for.
    not_found: 'That page does not exist. Go back to the start.',
    unknown_game: 'That game is not one this service knows. Choose a game from the list.',
    unknown_match: 'There is no game with that link. Check the link, or ask for a new one.',
    unknown_sheet: 'There is no score sheet with that link. Check the link, or ask for a new one.',
    unknown_ply: 'That move is not in this game. Reload the page.',
    unknown_invite: 'There is no invite with that code. Check the code, or ask for a new one.',
    unknown_household: 'This household is not open to this phone. Join it again with its code.',
    invalid_household_key: 'This phone\'s household code no longer works: it may have been replaced. Ask for the new one.',
    household_reader_key: 'This phone can follow the household but not add to it. Ask whoever keeps score for the full code.',
    method_not_allowed: 'The page asked for something the service does not do. Reload the page.',

    // Speed, size and rate.
    request_timeout: 'That took too long to send. Check the connection and try again.',
    body_too_large: 'That is too much to send at once. Make it shorter and try again.',
    unsupported_media_type: 'The page sent something the service could not read. Reload the page and try again.',
    rate_limited: 'Too many tries in a short time. Wait a few seconds and try again.',
    too_many_streams: 'Too many phones are watching this game live. This one will refresh every few seconds instead.',
    client_stream_limit: 'This phone is already watching too many games live. Close some and reload.',
    token_stream_limit: 'This place is already watched live on too many phones. Close some and reload.',
    resume_point_ahead: 'The live view lost its place. Reload the page to catch up.',

    // The game has moved on.
    stale_version: 'Someone else changed this a moment ago. It is now up to date: look again and try again.',
    no_round: 'There is no round to change yet. Enter a round first.',
    precondition_failed: 'Someone else changed this a moment ago. It is now up to date: look again and try again.',
    match_finished: 'This game is over. Start a new one to play again.',
    match_not_finished: 'This game is not over yet. Finish it first.',
    match_abandoned: 'This game was stopped by whoever started it.',
    match_too_long: 'This game has gone on as long as it can. Start a new one.',
    invite_redeemed: 'This invite was already used. Ask whoever started the game for a new one.',
    play_started: 'Play has already started, so this can no longer change.',
    rematch_exists: 'The next game was already set up. Open it from the finished game.',
    server_randomness: 'This game shuffles and rolls by itself: nothing to report or correct.',
    nothing_to_take_back: '{seat} has no move to take back.',
    take_back_limit: '{seat} has taken back {limit} moves in a row: this one stands until someone else plays or a card is drawn.',
    information_revealed: 'That move showed everyone a hidden card, so it cannot be taken back.',
    another_seat_acted: '{by_seat} has played since, so that move cannot be taken back.',
    chance_since: 'Cards were drawn or dice rolled since, so that cannot be taken back.',
    nothing_to_correct: 'There is no card or roll to correct yet.',
    moved_since: 'Someone has played since, so that card or roll can no longer be corrected.',
    same_outcome: 'That is what was already reported. Change it, or leave it as it is.',
    rules_version_unsupported: 'This game was played under older rules and cannot be continued here.',

    // Every game's shared refusals.
    game_over: 'The game is over: nothing more can be played.',
    chance_pending: {
      _: 'Waiting for the cards or dice first. Report them, then play.',
      kind: 'Waiting for {kind} first. Report it, then play.',
      seat: '{seat} drew a face-down card: say which card it is first.',
    },
    no_chance_pending: 'No card or roll is awaited right now.',

    // Hands entered at the table, each on its own phone.
    no_deal_pending: 'No deal is waiting for hands right now: the cards were already dealt.',
    hands_missing: {
      _: '{missing} have not tapped in their hands yet. Wait for them, or enter every hand on one phone instead.',
      one: '{missing} has not tapped in their hand yet. Wait for them, or enter every hand on one phone instead.',
    },
    invalid_hand: 'A hand is 1 to 16 cards. Tap the cards in your hand and try again.',
    not_your_turn: {
      _: '{seat}, it is {turn}’s turn, not yours.',
      to_act: '{seat}, it is {to_act}’s turn, not yours.',
      not_now: '{seat}, you cannot play right now: wait for your turn.',
    },
    unknown_seat: 'There is no player {seat_number} here: the table has {players} players.',
    inconsistent_state: 'The table does not add up. Check the cards and scores entered and try again.',
    player_count: 'This game needs {min} to {max} players, not {players}.',
    seat_required: 'Choose whose turn it is before playing.',

    // Score sheets.
    invalid_player_name: {
      _: 'A name needs at least one letter or digit. Type a name.',
      lookalike: 'A name uses a letter that only looks like an everyday one. Type it again with ordinary letters.',
    },
    duplicate_player: '“{name}” is in the list twice. Give each player a different name.',
    limit_exceeded: {
      _: 'That is more than this can hold (at most {max}).',
      note_chars: 'The note is too long: at most {max} characters.',
      tally_text_chars: 'This round holds too much text: at most {max} characters.',
      corrections_per_round: 'This round has been corrected as many times as it can be ({max}).',
      sheet_entries: 'This sheet is full ({max} entries). Start a new sheet to keep playing.',
      name_chars: 'A name is too long: at most {max} characters.',
    },
    invalid_note: 'The note cannot be used: write it with ordinary characters.',
    unknown_entry: 'That round is not on this sheet. Reload the page.',
    entry_superseded: 'That round was already corrected. Change the newest version instead.',
    entry_not_a_round: 'Only rounds can be corrected or undone.',
    note_required: 'Say why in a few words, then try again.',
    same_name: 'That player already has this name.',
    early_finish_not_allowed: 'This game cannot be finished early: play it to its end.',
    idempotency_key_reused: 'This was already sent as something else. Reload the page and enter it again.',

    // The service itself.
    database_unavailable: 'The service cannot save right now. Wait a moment and try again.',
    database_busy: 'The service is busy. Wait a moment and try again.',
    draining: 'The service is restarting. Wait a moment and try again.',
    stream_capacity: 'The live view is full right now. The page will refresh every few seconds instead.',
    internal: 'Something went wrong on the service. Try again; if it keeps happening, tell whoever runs it.',

    // Luck Plus.
    card_not_in_hand: 'You have no {card} in your hand.',
    empty_play: 'Choose at least one card to play.',
    group_size: 'Matching by {basis} takes {expected} cards, not {got}.',
    luck_plus_in_group: 'Play a LUCK PLUS on its own, not with other cards.',
    no_match: '{card} does not match {basis}.',
    no_dice: {
      _: 'No dice are showing yet: match the top card or roll.',
      seat: '{seat} has no dice left.',
    },
    dice_already_used: 'The dice showing were already used for {basis}. Match the top card or draw.',
    stop_not_last: 'A STOP card must be the last card you play.',
    doubles_need_doubles_roll: 'DOUBLES needs a roll of two equal dice, not {dice}.',
    single_die_not_allowed: 'One die matches only your last card, 6 or lower, on a roll made this turn.',
    must_roll: 'Roll the dice now.',
    must_match_or_draw: 'You rolled: now match a card or draw one.',
    no_draw_before_roll: 'Roll the dice before drawing a card.',
    first_turn_must_roll: 'The first player of the hand rolls before matching.',
    forced_bonus_pending: 'The LUCK PLUS just played means a bonus: play any card and its number.',
    no_bonus_owed: 'No bonus is owed right now.',
    bonus_required: 'Play at least one card for the bonus.',
    bonus_not_same_number: '{card} is not the same number as the first bonus card.',
    drawn_card_pending: {
      _: 'You drew a card: keep it or put it down first.',
      card: 'You drew {card}: play it, pass it on, play a LUCK PLUS, or keep it first.',
    },
    no_drawn_card: 'No drawn card is waiting.',
    not_transferable: '{card} cannot be passed to another player.',
    transfer_only_when_drawn: '{card} can be passed on only right after drawing it.',
    transfer_must_go_left: 'A TRANSFER goes to the player on your left, {left}, not {to}.',
    transfer_target_invalid: '{to} cannot receive cards.',
    extra_not_allowed: 'Only a TRANSFER PLUS takes extra cards.',
    extra_not_same_number: '{card} is not the number a TRANSFER PLUS extra needs.',
    unexpected_chance_kind: 'The table is waiting for {expected}, not {got}.',
    wrong_hand_count: 'Enter cards for {expected} players, not {got}.',
    wrong_card_count: 'That is {got} cards; {expected} are needed.',
    card_not_in_pile: 'There is no {card} left to draw. Check the card and try again.',
    bad_flips: 'The flipped cards must be LUCK PLUS cards, then one other card.',
    bad_die: 'A die shows 1 to 6, not {face}.',
    no_one_out: 'A hand ends when someone goes out: choose who went out.',
    seat_out_twice: '{seat} is chosen as out twice.',
    several_out: 'Only one player can go out, unless the LUCK OUT setting lets the round finish.',
    out_hand_not_empty: '{seat} went out but still has cards. Remove their cards or choose someone else.',
    empty_hand_not_out: '{seat} has no cards left but is not marked as out.',
    cards_not_in_deck: 'There are not that many {card} in the deck. Check the cards entered.',

    // Lucky Dice.
    wrong_dice_count: '{seat} holds {held} dice now, not {claimed}. Look again, then roll.',
    dice_count_required: 'Say how many dice are rolled.',
    stop_phase: '{stop_caller} called “Stop!”: the race is over, only extra rolls remain.',
    not_in_stop_phase: 'Nobody has called “Stop!” yet.',
    stop_caller_cannot_roll: 'Whoever called “Stop!” takes no extra rolls.',
    extra_rolls_exhausted: 'All {allowed} extra rolls are used.',
    extra_rolls_declined: 'This player already said no to the extra rolls.',
    stop_not_empty: '{seat} still has {dice} dice, so cannot call “Stop!”.',
    automatic_stop: '“Stop!” is called by itself when someone rolls away their last die.',
    wrong_coaster_count: 'Choose {expected} coasters, not {got}.',
    coaster_not_in_pile: 'There is no {coaster} coaster left. Check the coasters and try again.',
    wrong_face_count: '{seat} rolled {expected} dice: enter {expected} faces, not {got}.',
    no_round_winner: 'Every round has a winner: choose at least whoever called “Stop!”.',
    duplicate_seat: '{seat} is chosen twice.',
    too_many_winners: '{emptied} players cannot all run out of dice in one round; at most {max} can.',

    // Lucky Jack.
    invalid_jackpot_size: 'A jackpot is 3 or 4 matching cards, not {size}.',
    hand_minimum: 'With {hand_size} cards you cannot discard: you need at least {minimum}. Draw and keep.',
    must_keep_drawn: 'With {hand_size} cards you must keep the card you drew.',
    nothing_to_take: 'There is no discarded card to take.',
    not_next_player: 'Only {next} can take that card.',
    take_too_late: '“I take it!” must come before anything else is played.',
    not_a_jackpot: 'Discarding {card} does not leave a jackpot.',

    // Lucky Luau.
    card_not_available: 'There is no face-up {card} in the middle.',
    pile_empty: 'The face-down pile is empty.',
    cannot_toss_face_up: 'A face-up card must be added to your lei, not put back.',
    not_a_spacer: 'Place {index_number} of your lei is not an empty Spacer.',
    tool_already_used: 'Your {tool} was already used.',
    tool_not_during_draw: 'Tools cannot be used between drawing a card and adding it to your lei.',
    tool_not_in_end_phase: 'Once the middle is empty, only the Knife can be used.',
    no_such_slot: 'Your lei has {len} places; there is no place {index_number}.',
    end_phase: 'The middle is empty: use your Knife or finish.',
    not_end_phase: 'You can finish only once the middle is empty.',
    already_finished: '{seat} has already finished.',
    wrong_guest_count: 'Enter bonuses for {expected} Guests, not {got}.',
    guest_bonus_out_of_range: 'A Guest bonus of {points} is too big: use a number from -1000 to 1000.',
    wrong_rainbow_count: 'The lei has {expected} Rainbows, but {got} colours were chosen.',
    rainbow_colour_not_adjacent: 'The Rainbow in place {position_number} is not next to a {colour} flower it could copy.',
    wrong_lei_count: 'Enter leis for {expected} players, not {got}.',
    unknown_card_word: '{seat}’s lei has something that is not a card: “{word}”.',
    too_many_cards: 'There are {count} {card} cards on the table, but the game has only {copies}.',
    tool_used_twice: '{seat}’s lei uses the {tool} more than once.',

    // Plus & Minus.
    round_over: 'Round {round} is over: wait for the next deal.',
    unknown_stack: 'There is no pile of player {seat_number}: the table has {players} players.',
    empty_stack: '{stack} is empty and takes no card.',
    not_adjacent_rank: '{card} cannot go on {top}: only the same rank, one above or one below.',
    must_play: 'A card can be played ({card} on {stack}), so you must play.',
    swap_required: 'A 10 swaps two piles: choose the two piles.',
    swap_same_stack: 'Choose two different piles to swap, not {stack} twice.',
    swap_not_allowed: 'Only a 10 swaps piles, not {card}.',
    king_targets_required: 'A King names two other players: choose them.',
    king_target_self: '{seat} cannot choose themselves for a King.',
    king_targets_not_distinct: 'Choose two different players for the King, not {seat} twice.',
    king_targets_not_allowed: 'Only a King names players, not {card}.',
    must_pass: 'The plays are done: pass a card to the left.',
    pass_before_play: 'Play (or give up) first: {plays_remaining} plays remain.',
    nothing_to_forfeit: 'There are no plays left to give up.',
    choose_face_up_first: 'The face-up cards are being chosen: choose them first.',
    not_choosing: 'Face-up cards are not being chosen now.',
    already_chosen: '{seat} has already chosen their face-up cards.',
    wrong_player_count: 'The round lists {got} players; the table has {expected}.',
    too_many_of_rank: '{count} cards of rank {card} are entered, but the deck has only 4.',
  },
};

/** Which alternative of a code's message the parameters call for (`_` when none says). */
const ALTERNATIVE = {
  invalid_options: (p) => (p.option == null ? 'none' : p.max != null ? 'max' : '_'),
  chance_pending: (p) => (p.kind != null ? 'kind' : p.seat != null ? 'seat' : '_'),
  not_your_turn: (p) => (p.turn != null ? '_' : Array.isArray(p.to_act) && p.to_act.length ? 'to_act' : 'not_now'),
  invalid_player_name: (p) => (p.character != null ? 'lookalike' : '_'),
  limit_exceeded: (p) => p.limit,
  no_dice: (p) => (p.seat != null ? 'seat' : '_'),
  drawn_card_pending: (p) => (p.card != null ? 'card' : '_'),
  hands_missing: (p) => (Array.isArray(p.missing) && p.missing.length === 1 ? 'one' : '_'),
};

/** Parameters naming a seat (a number, or a list of them, or `{seat}` for a reporter). */
const SEAT_PARAMS = new Set(['seat', 'turn', 'to', 'left', 'next', 'stop_caller', 'by_seat', 'to_act', 'reported_by', 'player', 'missing']);
/** Parameters naming a card. */
const CARD_PARAMS = new Set(['card', 'top']);
/** Positions the service counts from 0, shown counted from 1 as `{name_number}`. */
const INDEX_PARAMS = new Set(['index', 'position']);

let language = 'en';
/** Chooses the catalogue's language (falls back to English for a missing code). */
export function setLanguage(code) {
  if (CATALOGUE[code]) language = code;
}

function lookup(key) {
  const own = CATALOGUE[language][key];
  return own !== undefined ? own : CATALOGUE.en[key];
}

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, name) => (values[name] ?? `{${name}}`));
}

function joinWords(list) {
  if (list.length <= 1) return list.join('');
  return fill(lookup('_and'), { first: list.slice(0, -1).join(', '), last: list[list.length - 1] });
}

function seatName(seat, names) {
  if (seat && typeof seat === 'object') return seatName(seat.seat, names);
  if (!Number.isInteger(seat)) return null;
  return names[seat] || fill(lookup('_player'), { number: seat + 1 });
}

function word(value) {
  if (typeof value !== 'string') return String(value);
  const words = lookup('_words') || {};
  return words[value] || value.replace(/_/g, ' ');
}

/** Every parameter as words a person reads, plus the numbers counted from 1. */
function placeholders(params, { names, game }) {
  const values = {};
  for (const [key, value] of Object.entries(params)) {
    if (SEAT_PARAMS.has(key)) {
      const seats = Array.isArray(value) ? value : [value];
      const named = seats.map((seat) => seatName(seat, names)).filter(Boolean);
      if (named.length) values[key] = joinWords(named);
      if (Number.isInteger(value)) values[`${key}_number`] = String(value + 1);
    } else if (CARD_PARAMS.has(key)) {
      values[key] = cardLabel(game, value);
    } else if (key === 'stack' && value && typeof value === 'object') {
      values[key] = fill(lookup('_stack'), { owner: seatName(value.seat, names), kind: word(value.stack) });
    } else if (key === 'coaster' && value && typeof value === 'object') {
      values[key] = `${word(value.left)}–${word(value.right)}`;
    } else if (Array.isArray(value)) {
      values[key] = joinWords(value.map(word));
    } else if (typeof value === 'number') {
      values[key] = String(value);
      if (INDEX_PARAMS.has(key)) values[`${key}_number`] = String(value + 1);
    } else if (typeof value === 'string') {
      values[key] = word(value);
    }
  }
  // The sheets' and the games' names for the table's size.
  values.players ??= values.seats;
  return values;
}

/** The template for `code` with these parameters, or null when the catalogue has none. */
function templateFor(code, params) {
  const entry = lookup(code);
  if (entry === undefined || code.startsWith('_')) return null;
  if (typeof entry === 'string') return entry;
  const pick = ALTERNATIVE[code];
  const key = pick ? pick(params) : '_';
  return entry[key] ?? entry._;
}

/**
 * Plain words for `problem` (a problem document from the service, or the page's own `offline`),
 * naming seats by `names` and cards for `game`. Never the service's `detail`, never a code: a code
 * the catalogue lacks (a newer service) reads as the problem's title.
 */
export function explain(problem, { names = [], game = null } = {}) {
  if (!problem || typeof problem !== 'object') return lookup('_unknown');
  const params = problem.params && typeof problem.params === 'object' ? problem.params : {};
  const code = typeof problem.code === 'string' ? problem.code : '';
  const template = templateFor(code, params);
  if (template === null) return problem.title || lookup('_unknown');
  let message = fill(template, placeholders(params, { names: names || [], game }));
  // A placeholder the parameters did not fill: the service sent less than expected.
  if (/\{\w+\}/.test(message)) return problem.title || lookup('_unknown');
  // A score sheet's round refused while its rounds were replayed names the round.
  if (Number.isInteger(params.round) && code !== 'round_over') {
    message = fill(lookup('_round'), { round: params.round, message });
  }
  return message;
}

/** Parameters that say which part of a form a problem is about, and the field it is. */
const FIELD_OF = {
  card: 'cards', top: 'cards', cards: 'cards', coaster: 'coasters', word: 'cards', face: 'dice', dice: 'dice',
  name: 'name', note: 'note', option: 'option',
};
const FIELD_OF_CODE = {
  invalid_note: 'note', note_required: 'note', invalid_player_name: 'name', duplicate_player: 'name',
  same_name: 'name', invalid_options: 'option', invalid_seed: 'seed', invalid_invite_code: 'code',
  unknown_invite: 'code', invalid_player: 'name', same_player: 'name', unknown_game: 'game', invalid_tally: 'round', invalid_chance: 'chance',
  wrong_face_count: 'dice', bad_die: 'dice', doubles_need_doubles_roll: 'dice', wrong_dice_count: 'dice',
  wrong_coaster_count: 'coasters', wrong_card_count: 'cards', wrong_rainbow_count: 'cards',
  guest_bonus_out_of_range: 'bonus', wrong_guest_count: 'bonus',
};
const FIELD_OF_LIMIT = { note_chars: 'note', name_chars: 'name', tally_text_chars: 'round' };

/**
 * Where a problem belongs: `{seat, field}`. `seat` is the seat (from 0) it is about, `field` the
 * part of a form (`cards`, `dice`, `coasters`, `name`, `note`, `option`, `round`, `seed`, `game`,
 * `code`...); both null for a table-wide problem, to be shown at the top of the form. For
 * `field: 'option'`, `option` names the option. With `names`, a player named in the problem
 * (a name given twice) finds its seat.
 */
export function placeOf(problem, { names = [] } = {}) {
  const params = (problem && problem.params) || {};
  const code = (problem && problem.code) || '';
  let seat = null;
  for (const key of ['seat', 'player', 'stop_caller']) {
    if (Number.isInteger(params[key])) { seat = params[key]; break; }
  }
  // Refusals about the whole table even when they name a seat.
  if (['unknown_seat', 'unknown_stack', 'stop_phase', 'chance_pending'].includes(code)) seat = null;
  if (seat === null && typeof params.name === 'string' && names.length) {
    const index = names.lastIndexOf(params.name);
    if (index >= 0) seat = index;
  }
  let field = FIELD_OF_CODE[code] || FIELD_OF_LIMIT[params.limit] || null;
  if (!field) {
    for (const [key, name] of Object.entries(FIELD_OF)) {
      if (params[key] !== undefined) { field = name; break; }
    }
  }
  const place = { seat, field };
  if (field === 'option' && typeof params.option === 'string') place.option = params.option;
  return place;
}

/** An error in words: the catalogue's for a problem from the service, else the error's own
 * message (a check the page made itself). */
export function refusalWords(error, context = {}) {
  if (error && error.problem) return explain(error.problem, context);
  return String((error && error.message) || error || 'Something went wrong.');
}

/** Shows `error` in words next to `control` when there is one (which gets focus), else in
 * `slot` (a `.error` paragraph, focused when `focusSlot`), and says it to screen readers. */
export function showRefusal(error, { control = null, slot = null, context = {}, focusSlot = true } = {}) {
  const message = refusalWords(error, context);
  if (control) showFieldError(control, message);
  else {
    slot.textContent = message;
    slot.hidden = false;
    if (focusSlot) slot.focus();
  }
  announce(message);
}
