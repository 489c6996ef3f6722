// Which columns to plot: a drop-down with a filter and a checkbox per column that a plot can draw
// (numbers and booleans; the same column names as `logscope export`).
import { h, clear } from '../dom.js';

const SHOWN = 400; // checkboxes listed at once; the filter finds the rest
export const MAX_FIELDS = 8;

export class FieldPicker {
  // onChange(names): the selection changed; signal ends the listeners with the file.
  constructor({ onChange, signal }) {
    this.onChange = onChange;
    this.columns = [];
    this.chosen = [];
    this.summary = h('summary.button.small#plot-fields-summary', {}, 'Fields');
    this.filter = h('input.input.small#plot-field-filter', { type: 'search', placeholder: 'filter, e.g. position', 'aria-label': 'Filter the fields', autocomplete: 'off' });
    this.list = h('ul.field-list#plot-field-list');
    this.note = h('p.small.muted.field-note');
    this.element = h('details.field-picker#plot-fields', {}, this.summary, h('div.field-panel', {}, this.filter, this.list, this.note));
    this.filter.addEventListener('input', () => this.render());
    this.element.addEventListener('toggle', () => { if (this.element.open) this.filter.focus(); });
    document.addEventListener('click', (e) => { if (this.element.open && !this.element.contains(/** @type {Node | null} */ (e.target))) this.element.open = false; }, { signal });
  }

  // columns: [{name, kind}]; chosen: names to start with.
  setColumns(columns, chosen) {
    this.columns = columns.filter((c) => c.kind === 'number' || c.kind === 'bool');
    this.chosen = chosen.filter((name) => this.columns.some((c) => c.name === name));
    this.filter.value = '';
    this.render();
  }

  get selected() { return [...this.chosen]; }

  set(names) {
    this.chosen = names.slice(0, MAX_FIELDS);
    this.render();
  }

  render() {
    const needle = this.filter.value.trim().toLowerCase();
    const matches = this.columns.filter((c) => !needle || c.name.toLowerCase().includes(needle));
    clear(this.list).append(...matches.slice(0, SHOWN).map((c) => {
      const box = h('input', { type: 'checkbox', value: c.name, checked: this.chosen.includes(c.name), disabled: !this.chosen.includes(c.name) && this.chosen.length >= MAX_FIELDS });
      box.addEventListener('change', () => {
        this.chosen = box.checked ? [...this.chosen, c.name] : this.chosen.filter((n) => n !== c.name);
        this.render();
        this.onChange(this.selected);
      });
      return h('li', {}, h('label', {}, box, h('span.mono', {}, c.name), c.kind === 'bool' ? h('span.muted.small', {}, ' (0/1)') : null));
    }));
    this.note.textContent = matches.length > SHOWN ? `${matches.length - SHOWN} more: type to narrow the list` : !this.columns.length ? 'No numeric field.' : `At most ${MAX_FIELDS} fields on one chart.`;
    this.summary.textContent = this.chosen.length ? `${this.chosen.slice(0, 3).join(', ')}${this.chosen.length > 3 ? ` +${this.chosen.length - 3}` : ''} ▾` : 'Choose fields ▾';
  }
}

const BORING = /(^|\.)(seq|secs|nsecs|stamp|timestamp\w*)$|(^|\.)header\.|^sample$|covariance|orientation\.|status\./;
const plottable = (columns) => columns.filter((c) => c.kind === 'number' || c.kind === 'bool');
// Whether a source has a column worth a first look (not only header stamps and sequence numbers).
export const hasLivelyField = (columns) => plottable(columns).some((c) => !BORING.test(c.name));

// The fields to show first: a few numeric columns that say something about the robot (motion,
// positions, readings) before bookkeeping (header stamps, covariances, quaternions). A format's
// module may choose instead (its defaultFields).
export function defaultFields(columns) {
  const numeric = plottable(columns);
  const lively = /linear_acceleration|angular_velocity|velocity|twist\.|speed|position\.|latitude|longitude|altitude|range|voltage|value|data$/;
  const good = numeric.filter((c) => !BORING.test(c.name));
  const best = good.filter((c) => lively.test(c.name));
  const pick = best.length ? best : good.length ? good : numeric;
  // A vector's components together (x, y, z of one field), else the first few columns.
  const stem = (name) => name.replace(/(\.[xyzw]|\[\d+\])$/, '');
  const first = pick[0] ? stem(pick[0].name) : '';
  const siblings = pick.filter((c) => stem(c.name) === first && c.name !== first);
  return (siblings.length > 1 ? siblings : pick).slice(0, 3).map((c) => c.name);
}
