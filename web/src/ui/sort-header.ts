/**
 * A sortable column header. The label is a button inside the cell, so the keyboard sorts too (Tab
 * to it, Enter or Space), and `aria-sort` tells a screen reader the order; a click anywhere in the
 * cell sorts (the button's click reaches it), and the new table's button gets the focus back.
 */
import { h } from '../dom.js';

export type SortState<K extends string> = { key: K | ''; desc: boolean };

export function sortHeader<K extends string>(
  key: K,
  label: string,
  sort: SortState<K>,
  /** Re-renders the table into `host` with `sort` as it now is. */
  rerender: () => void,
  host: HTMLElement,
  options: { title?: string; ascendingFirst?: boolean } = {},
): HTMLElement {
  const current = sort.key === key;
  return h(
    'th',
    {
      class: `sortable${current ? (sort.desc ? ' desc' : ' asc') : ''}`,
      'data-sort': key,
      'aria-sort': current ? (sort.desc ? 'descending' : 'ascending') : 'none',
      ...(options.title ? { title: options.title } : {}),
      onclick: () => {
        sort.desc = current ? !sort.desc : options.ascendingFirst !== true;
        sort.key = key;
        rerender();
        host.querySelector<HTMLButtonElement>(`th[data-sort="${key}"] button`)?.focus();
      },
    },
    h('button', { type: 'button', class: 'sort' }, label),
  );
}
