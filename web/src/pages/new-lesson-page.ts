/** A new lesson: the lesson form, POST /api/lessons, then the lesson's page. */
import { api } from '../api.js';
import type { CreatedLesson } from '../api-types.js';
import { h, mount } from '../dom.js';
import type { PageContext } from '../page-context.js';
import { toast } from '../ui/toast.js';
import { lessonForm } from './lesson-form.js';

export async function newLessonPage(ctx: PageContext): Promise<void> {
  mount(
    ctx.main,
    h('div', { class: 'page-head' }, h('h1', {}, 'New lesson')),
    lessonForm({}, 'Add lesson', async (draft) => {
      const added = await api<CreatedLesson>('/api/lessons', { method: 'POST', body: draft });
      toast(`added ${added.id}`);
      location.hash = `#/lessons/${added.id}`;
    }),
  );
}
