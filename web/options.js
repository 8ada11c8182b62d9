// A game's options as a form: one control per option the person can choose, read back as the
// options that differ from the game's defaults.

import { h, field, uid, words } from './dom.js';

function optionControl(name, schema, fallback, maxPlayers) {
  const types = [].concat(schema.type || []);
  const enumerated = schema.enum || (schema.oneOf || []).flatMap((alternative) => alternative.enum || []);
  const seatOption = (schema.oneOf || []).some((alternative) => (alternative.description || '').startsWith('A seat at the table'));
  if (seatOption) {
    // Seats are 0-based in the API; people count players from 1.
    const select = h('select', { name }, Array.from({ length: maxPlayers }, (_, seat) => h('option', { value: seat }, `Player ${seat + 1}`)));
    select.value = String(fallback ?? 0);
    return { control: select, read: () => Number(select.value) };
  }
  // A setting with one allowed value is no choice.
  if (enumerated.length === 1) return null;
  if (types.includes('boolean')) {
    const box = h('input', { type: 'checkbox', name });
    box.checked = Boolean(fallback);
    return { control: box, read: () => box.checked };
  }
  if (enumerated.length) {
    const select = h('select', { name }, enumerated.map((value) => h('option', { value: JSON.stringify(value) }, String(value))));
    select.value = JSON.stringify(fallback ?? enumerated[0]);
    return { control: select, read: () => JSON.parse(select.value) };
  }
  const integer = types.includes('integer') || (schema.oneOf || []).some((alternative) => alternative.type === 'integer');
  if (integer) {
    const input = h('input', { type: 'number', name, inputmode: 'numeric', step: 1, min: schema.minimum ?? 0 });
    input.value = fallback ?? '';
    return { control: input, read: () => (input.value === '' ? null : Number(input.value)) };
  }
  return null; // lists and objects keep their defaults here
}

export function optionsEditor(game) {
  const properties = (game.options_schema || {}).properties || {};
  const editors = {};
  const fields = [];
  for (const [name, schema] of Object.entries(properties)) {
    const editor = optionControl(name, schema, game.default_options[name], game.max_players);
    if (!editor) continue;
    editors[name] = editor;
    // The option's own description, or its type's when the option only states its default.
    const own = schema.description && !schema.description.startsWith('Default') ? schema.description : '';
    const typeHint = ((schema.oneOf || [])[0] || {}).description || '';
    const hint = (own || (typeHint.startsWith('A seat') ? '' : typeHint)).split('\n')[0].replace(/`/g, '');
    const label = words(name).replace(/^./, (first) => first.toUpperCase());
    if (editor.control.type === 'checkbox') {
      editor.control.id = uid('option');
      fields.push(h('div', { class: 'field check' }, h('label', {}, editor.control, ` ${label}`),
        h('p', { class: 'error', id: `${editor.control.id}-error`, hidden: true })));
    } else {
      fields.push(field(label, editor.control, hint || null));
    }
  }
  return {
    element: h('details', { class: 'options' }, h('summary', {}, `${game.title} options`), fields),
    read() {
      const options = {};
      for (const [name, editor] of Object.entries(editors)) {
        const value = editor.read();
        if (JSON.stringify(value) !== JSON.stringify(game.default_options[name] ?? null)) options[name] = value;
      }
      return options;
    },
    control: (name) => (editors[name] || {}).control,
  };
}

