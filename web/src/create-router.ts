/** Hash routes: which page a URL shows, the nav link it lights, and undoing the last page on leaving. */
import { analyticsPage } from './pages/analytics-page.js';
import { explainPage } from './pages/explain-page.js';
import { lessonPage } from './pages/lesson-page.js';
import { lessonsPage } from './pages/lessons-page.js';
import { newLessonPage } from './pages/new-lesson-page.js';
import { orgPage } from './pages/org-page.js';
import { replayPage } from './pages/replay-page.js';
import { reviewPage } from './pages/review-page.js';
import { h } from './dom.js';
import type { PageContext } from './page-context.js';

/** A part of the hash as typed: percent-decoded when it is valid percent-encoding (`100%` is not). */
function decodePart(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * Returns the function that renders the page of the current hash (call it on every hashchange).
 * Each navigation renders into a view of its own, put in place at once: a page still loading when
 * the user moves on finishes into its own detached view and never overwrites the page after it.
 */
export function createRouter(main: HTMLElement): () => Promise<void> {
  let leave: (() => void) | undefined;
  let current = 0;
  return async () => {
    leave?.();
    leave = undefined;
    const token = (current += 1);
    const view = h('div', { class: 'view' });
    main.replaceChildren(view);
    const ctx: PageContext = {
      main: view,
      // a page that registers its cleanup after the user left it cleans up at once
      onLeave: (stop) => {
        if (token === current) leave = stop;
        else stop();
      },
    };
    const hash = location.hash.replace(/^#\/?/, '') || 'lessons';
    const [page = 'lessons', arg] = hash.split('/');
    for (const link of document.querySelectorAll<HTMLAnchorElement>('[data-nav]'))
      link.classList.toggle('active', link.dataset.nav === (page === 'new' ? 'lessons' : page));
    main.setAttribute('data-page', page);
    if (page === 'lessons' && arg) await lessonPage(ctx, decodePart(arg));
    else if (page === 'new') await newLessonPage(ctx);
    else if (page === 'review') await reviewPage(ctx);
    else if (page === 'explain') await explainPage(ctx);
    else if (page === 'analytics') await analyticsPage(ctx);
    else if (page === 'replay') await replayPage(ctx);
    else if (page === 'org') await orgPage(ctx);
    else await lessonsPage(ctx);
    // The browser tests wait for this: the page has its data.
    if (token === current) main.setAttribute('data-ready', page);
  };
}
