// A game's options as a form, in a family's words: each option a label and a one-line effect
// (from the rulebooks and docs/rules/*.md), never its identifier; read back as the options that
// differ from the game's defaults. On a score sheet (`forSheet`) the options about dealing, turn
// order, timing and moves are hidden: the sheet only keeps the score, so only what changes the
// score, or when the game ends, is offered. `sheetTarget` says the goal in words for the sheet.

import { h, field, uid, replace } from './dom.js';

// label: what the option is; effect: what choosing it does; choices: words for enumerated values;
// sheet: false when it plays no part on a score sheet (and why, for the record).
const WORDING = {
  'lucky-jack': {
    rounds: { label: 'Rounds to play', effect: 'The game lasts 3 or 5 rounds; the most points at the end wins.', choices: { 3: '3 rounds', 5: '5 rounds' } },
    dealer: { label: 'Who deals first', effect: 'The deal then passes to the left each round.', sheet: false /* dealing */ },
    drawn_discard_follows_symbol_rule: { label: 'A drawn card thrown away counts as a normal discard', effect: 'A lower symbol then costs 2 penalty cards, and a same or higher one can make a jackpot.', sheet: false /* a move */ },
    i_take_it_ends_turn: { label: '“I take it!” uses up your turn', effect: 'Taking someone’s thrown-away drawn card is then all you do that turn.', sheet: false /* turn order */ },
    jackpot_auto_declare: { label: 'Jackpots count without calling them', effect: 'Untick to make players say “Jackpot!” for it to count.', sheet: false /* a move */ },
    lower_discard_can_win: { label: 'A lower discard can still win', effect: 'A jackpot left by a lower discard wins before the 2 penalty cards are drawn.', sheet: false /* a move */ },
    max_turns_per_round: { label: 'Turn limit per round', effect: 'A round that reaches this many turns with no jackpot ends with nobody scoring. Empty: no limit.', sheet: false /* timing */ },
    starter_plays_after_flip: { label: 'The starter plays first', effect: 'The player who turns up the first card plays first; untick for the player on their left.', sheet: false /* turn order */ },
  },
  'lucky-dice': {
    end_mode: { label: 'How the game ends', effect: 'Win by collecting coasters, or play until the coaster pile runs out.', choices: { three_coasters: 'First to collect the coasters needed', until_pile_empty: 'When the coaster pile is empty (most coasters wins)' } },
    coaster_target: { label: 'Coasters to win', effect: 'The first player with this many face-down coasters wins (when playing to a number).' },
    auto_stop: { label: '“Stop!” is called for you', effect: 'The roll that empties your dice calls “Stop!” by itself.', sheet: false /* a move */ },
    extra_rolls: { label: 'Extra rolls after “Stop!”', effect: 'How many more rolls each other player gets once someone calls “Stop!”.', sheet: false /* timing */ },
    strict_roll_count: { label: 'Say how many dice you roll', effect: 'Each roll must say how many dice you hold.', sheet: false /* a move */ },
    coaster_set: { label: 'The coasters in play', effect: 'Which pairs of lucky symbols are on the coasters.', sheet: false /* the deck: not on a form */ },
  },
  'luck-plus': {
    scoring: { label: 'How to score', effect: 'Hands won: one for each player who goes out. Points: whoever goes out wins the points left in the other hands. Penalty points: you keep the points left in your hand.', choices: { hands: 'Hands won', points_to_winner: 'Points won from the others', penalty_points: 'Penalty points (fewest wins)' } },
    target: { label: 'Score that ends the game', effect: 'The game ends after the hand in which someone reaches it. Empty: 5 hands, or 250 points.' },
    luck_out_bonus_in_penalty: { label: 'LUCK OUT with penalty points', effect: 'Whether a LUCK OUT takes 30 off your penalty points.', choices: { subtract: 'Takes 30 points off', ignore: 'Changes nothing' } },
    luck_out_full_round: { label: 'Everyone gets one more turn after a LUCK OUT', effect: 'Then several players may go out in the same hand.' },
    dealer: { label: 'Who deals first', effect: 'The deal then passes to the left.', sheet: false /* dealing */ },
    dice_reuse_within_roll: { label: 'One roll may be used several times', effect: 'The same dice may match several cards in one roll.', sheet: false /* a move */ },
    pre_roll_top_match_on_first_turn: { label: 'First player may match before rolling', effect: 'On the first turn of a hand, the top card may be matched before the dice are rolled.', sheet: false /* a move */ },
    reshuffle_match_pile: { label: 'Reshuffle when the draw pile runs out', effect: 'The played cards (except the top one) become the new draw pile.', sheet: false /* dealing */ },
    stop_mistake: { label: 'Cards played after a STOP', effect: 'Whether they are refused or simply dropped.', choices: { reject: 'Refused', truncate: 'Dropped' }, sheet: false /* a move */ },
    tp_extra_same_number_as: { label: 'TRANSFER PLUS extra card', effect: 'Which number the extra card must share.', choices: { chosen_card: 'The chosen card’s number', tp_card: 'The TRANSFER PLUS card’s number' }, sheet: false /* a move */ },
  },
  'plus-minus': {
    rounds: { label: 'Rounds to play', effect: 'Empty: one round per player, so everyone deals once; the most points wins.' },
    first_dealer: { label: 'Who deals first', effect: 'The deal then passes to the left.', sheet: false /* dealing */ },
    empty_stack_accepts_any: { label: 'Any card on an empty stack', effect: 'Untick to leave an empty stack closed.', sheet: false /* a move */ },
    face_up_chosen_by_player: { label: 'Players choose their face-up cards', effect: 'Each gets 4 hidden cards and picks 2 to turn face up.', sheet: false /* dealing */ },
    higher_by: { label: 'Which face-up card is “higher”', effect: 'It starts the Plus stack.', choices: { rank: 'The higher rank', points: 'The one worth more points' }, sheet: false /* dealing */ },
    pass_after_forfeit: { label: 'Pass a card after giving up', effect: 'A player who gives up a turn still passes a card to the left.', sheet: false /* a move */ },
  },
  'lucky-luau': {
    pink_value: { label: 'Points for a Pink Flower', effect: 'What a Pink Flower scores next to a flower giving pink (usually 5).' },
    ti_value: { label: 'Points for a Ti Leaf', effect: 'What a Ti Leaf scores next to another leaf (usually 1).' },
    orange_colours: { label: 'Colours of the Orange Flower', effect: 'The two colours the orange rare flower is made of.', sheet: false /* a list: kept as printed */ },
    rainbow_assignment: { label: 'Rainbow Flower colour', effect: 'Let the sheet pick the best colour, or only count the colour you name.', choices: { auto: 'Best colour, worked out for you', declared: 'Only the colour you name' } },
    rainbow_chain: { label: 'Rainbows can copy a Rainbow', effect: 'A Rainbow may take the colour of a Rainbow next to it.' },
    rare_provides_to_rare: { label: 'Rare flowers feed rare flowers', effect: 'A rare flower gives its colours to a rare flower next to it.' },
    hook_off_by_one: { label: 'Fish Hook “off by 1”', effect: 'How the Fish Hook’s “off by 1” is counted.', choices: { count_diff1: 'Counts differ by one', within_one_position: 'Within one place' } },
    first_player: { label: 'Who plays first', effect: 'Play then goes to the left.', sheet: false /* turn order */ },
    unused_tools_in_pile: { label: 'Tools of missing players', effect: 'They stay out of the pile.', sheet: false /* no choice */ },
  },
};

/** The plain words for one option of `game` (a slug): `{label, effect, choices}`. */
export function optionWords(game, name) {
  const known = (WORDING[game] || {})[name];
  if (known) return known;
  // Never show an identifier: an option this table does not know yet reads as words at least.
  const label = String(name).replaceAll('_', ' ').replace(/^./, (first) => first.toUpperCase());
  return { label, effect: '' };
}

const seatChoice = (schema) => (schema.oneOf || []).some((alternative) => (alternative.description || '').startsWith('A seat at the table'));

function optionControl(game, name, schema, fallback, maxPlayers) {
  const types = [].concat(schema.type || []);
  const enumerated = schema.enum || (schema.oneOf || []).flatMap((alternative) => alternative.enum || []);
  const wording = optionWords(game, name);
  if (seatChoice(schema)) {
    // Seats are 0-based in the API; people count players from 1. Until the form says who plays
    // (`seats`), every seat the game allows.
    const select = h('select', { name });
    const seats = (names) => {
      const kept = Number(select.value || (fallback ?? 0));
      replace(select, ...names.map((player, seat) => h('option', { value: seat }, player || `Player ${seat + 1}`)));
      select.value = String(kept < names.length ? kept : 0);
    };
    seats(Array.from({ length: maxPlayers }, () => ''));
    return { control: select, read: () => Number(select.value), seats };
  }
  // A setting with one allowed value is no choice.
  if (enumerated.length === 1) return null;
  if (types.includes('boolean')) {
    const box = h('input', { type: 'checkbox', name });
    box.checked = Boolean(fallback);
    return { control: box, read: () => box.checked };
  }
  if (enumerated.length) {
    const choices = wording.choices || {};
    const select = h('select', { name }, enumerated.map((value) => h('option', { value: JSON.stringify(value) },
      choices[value] || String(value).replaceAll('_', ' '))));
    select.value = JSON.stringify(fallback ?? enumerated[0]);
    return { control: select, read: () => JSON.parse(select.value) };
  }
  const integer = types.includes('integer') || (schema.oneOf || []).some((alternative) => alternative.type === 'integer');
  if (integer) {
    const input = h('input', { type: 'number', name, inputmode: 'numeric', step: 1, min: schema.minimum ?? 0 });
    if (schema.maximum !== undefined && schema.maximum < 1e6) input.max = schema.maximum;
    input.value = fallback ?? '';
    return { control: input, read: () => (input.value === '' ? null : Number(input.value)) };
  }
  return null; // lists and objects keep their defaults here
}

/** The form for `game`'s options. `forSheet` (default true) hides what a score sheet ignores. */
export function optionsEditor(game, { forSheet = true } = {}) {
  const properties = (game.options_schema || {}).properties || {};
  const editors = {};
  const fields = [];
  // The table's order (what matters most first), then anything it does not know yet.
  const known = Object.keys(WORDING[game.slug] || {}).filter((name) => name in properties);
  const names = [...known, ...Object.keys(properties).filter((name) => !known.includes(name))];
  for (const name of names) {
    const schema = properties[name];
    const wording = optionWords(game.slug, name);
    if (forSheet && wording.sheet === false) continue;
    const editor = optionControl(game.slug, name, schema, game.default_options[name], game.max_players);
    if (!editor) continue;
    editors[name] = editor;
    if (editor.control.type === 'checkbox') {
      editor.control.id = uid('option');
      const hintId = `${editor.control.id}-hint`;
      if (wording.effect) editor.control.setAttribute('aria-describedby', hintId);
      fields.push(h('div', { class: 'field check' }, h('label', {}, editor.control, ` ${wording.label}`),
        wording.effect ? h('p', { class: 'hint', id: hintId }, wording.effect) : null,
        h('p', { class: 'error', id: `${editor.control.id}-error`, hidden: true })));
    } else {
      fields.push(field(wording.label, editor.control, wording.effect || null));
    }
  }
  const summary = forSheet ? `${game.title}: scoring and length` : `${game.title} options`;
  return {
    element: fields.length
      ? h('details', { class: 'options' }, h('summary', {}, summary), fields)
      : h('div'),
    read() {
      const options = {};
      for (const [name, editor] of Object.entries(editors)) {
        const value = editor.read();
        if (JSON.stringify(value) !== JSON.stringify(game.default_options[name] ?? null)) options[name] = value;
      }
      return options;
    },
    control: (name) => (editors[name] || {}).control,
    /** Offers only the players at the table, by name, where an option names a seat. */
    seats(names) {
      for (const editor of Object.values(editors)) if (editor.seats) editor.seats(names);
    },
  };
}

const plural = (count, one, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** The sheet's goal in words, from its game and options: rounds to play or points to reach. */
export function sheetTarget(game, options = {}, playerCount = 0) {
  switch (game) {
    case 'lucky-jack':
      return `${plural(options.rounds ?? 3, 'round')} to play; the most points wins.`;
    case 'plus-minus': {
      const rounds = options.rounds ?? playerCount;
      return options.rounds == null
        ? `${plural(rounds, 'round')} to play (everyone deals once); the most points wins.`
        : `${plural(rounds, 'round')} to play; the most points wins.`;
    }
    case 'luck-plus': {
      const scoring = options.scoring || 'hands';
      if (scoring === 'hands') return `First to win ${plural(options.target ?? 5, 'hand')}.`;
      if (scoring === 'points_to_winner') return `First to reach ${options.target ?? 250} points.`;
      return `Play until someone reaches ${options.target ?? 250} penalty points; the fewest wins.`;
    }
    case 'lucky-dice':
      return (options.end_mode || 'three_coasters') === 'until_pile_empty'
        ? 'Play until the coaster pile is empty; the most coasters wins.'
        : `First to collect ${plural(options.coaster_target ?? 3, 'coaster')} wins.`;
    case 'lucky-luau':
      return 'One round is the whole game: enter everyone’s leis once the centre is empty.';
    default:
      return '';
  }
}
