/** Hash routes: which page a URL shows, the nav link it lights, and undoing the last page on leaving. */
import { analyticsPage } from './pages/analytics-page.js';
import { explainPage } from './pages/explain-page.js';
import { lessonPage } from './pages/lesson-page.js';
import { lessonsPage } from './pages/lessons-page.js';
import { newLessonPage } from './pages/new-lesson-page.js';
import { orgPage } from './pages/org-page.js';
import { replayPage } from './pages/replay-page.js';
import { reviewPage } from './pages/review-page.js';
import type { PageContext } from './page-context.js';

/** Returns the function that renders the page of the current hash (call it on every hashchange). */
export function createRouter(main: HTMLElement): () => Promise<void> {
  let leave: (() => void) | undefined;
  const ctx: PageContext = { main, onLeave: (stop) => (leave = stop) };
  return async () => {
    leave?.();
    leave = undefined;
    const hash = location.hash.replace(/^#\/?/, '') || 'lessons';
    const [page = 'lessons', arg] = hash.split('/');
    for (const link of document.querySelectorAll<HTMLAnchorElement>('[data-nav]'))
      link.classList.toggle('active', link.dataset.nav === (page === 'new' ? 'lessons' : page));
    main.setAttribute('data-page', page);
    if (page === 'lessons' && arg) await lessonPage(ctx, decodeURIComponent(arg));
    else if (page === 'new') await newLessonPage(ctx);
    else if (page === 'review') await reviewPage(ctx);
    else if (page === 'explain') await explainPage(ctx);
    else if (page === 'analytics') await analyticsPage(ctx);
    else if (page === 'replay') await replayPage(ctx);
    else if (page === 'org') await orgPage(ctx);
    else await lessonsPage(ctx);
    // The browser tests wait for this: the page has its data.
    main.setAttribute('data-ready', page);
  };
}
