/** The toast: one line after an action; an API error shows its hint when it has one. */
import { ApiError } from '../api.js';

const toastEl = document.getElementById('toast') as HTMLElement;

export function toast(text: string, kind: 'ok' | 'error' = 'ok'): void {
  toastEl.textContent = text;
  toastEl.className = `toast ${kind}`;
  toastEl.hidden = false;
  window.setTimeout(() => (toastEl.hidden = true), 3500);
}

export function fail(error: unknown): void {
  const text =
    error instanceof ApiError ? `${error.message}${error.hint ? ` — ${error.hint}` : ''}` : String(error);
  toast(text, 'error');
}
