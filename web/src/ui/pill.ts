/** A small rounded label (a tag, a status, a count); `cls` picks its colour. */
import { h } from '../dom.js';

export function pill(text: string, cls = ''): HTMLElement {
  return h('span', { class: `pill ${cls}` }, text);
}
