/** One scope field (tools, commands, paths, ...) as a row of code chips; nothing when it is empty. */
import { h } from '../dom.js';

export function scopeRow(label: string, items: readonly string[]): HTMLElement | null {
  return items.length === 0
    ? null
    : h(
        'div',
        { class: 'scope-row' },
        h('span', { class: 'muted' }, label),
        items.map((i) => h('code', {}, i)),
      );
}
