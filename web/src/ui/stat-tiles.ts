/** A row of big numbers with their labels (the lesson counts, the analytics totals). */
import { h } from '../dom.js';

export function statTiles(
  rows: readonly (readonly [label: string, value: number | string])[],
): HTMLElement[] {
  return rows.map(([label, n]) => h('div', { class: 'stat' }, h('b', {}, String(n)), h('span', {}, label)));
}
