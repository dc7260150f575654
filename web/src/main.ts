/** The dashboard: hash routes over the API, rendered with plain DOM calls. */
import { api, ApiError, captureToken } from './api.js';
import type { ServerStatus } from './api-types.js';
import { h, mount } from './dom.js';
import { refreshReviewCount } from './refresh-review-count.js';
import { createRouter } from './create-router.js';
import { setupTheme } from './setup-theme.js';
import { fail } from './ui/toast.js';

async function start(): Promise<void> {
  const main = document.getElementById('main') as HTMLElement;
  captureToken();
  setupTheme();
  try {
    const status = await api<ServerStatus>('/api/status');
    const notice = document.getElementById('notice') as HTMLElement;
    if (status.notice) {
      notice.textContent = status.notice;
      notice.hidden = false;
    }
    document.title = `lore · ${status.projectRoot?.split('/').pop() ?? 'user lessons'}`;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      mount(
        main,
        h(
          'p',
          { class: 'empty' },
          'This server needs a token: open the URL `lore serve` printed (it ends in #token=...).',
        ),
      );
      return;
    }
    fail(error);
  }
  const route = createRouter(main);
  window.addEventListener('hashchange', () => void route());
  void refreshReviewCount();
  await route();
}

void start();
