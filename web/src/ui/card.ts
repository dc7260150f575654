/** A titled card, the block every page is made of. */
import { h } from '../dom.js';
import type { Child } from '../dom.js';

export function card(title: string, ...children: Child[]): HTMLElement {
  return h('section', { class: 'card' }, h('h2', {}, title), ...children);
}
