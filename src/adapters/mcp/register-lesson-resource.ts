/**
 * The `lesson://{id}` resource of `lore mcp`: one lesson as Markdown (src/core/views/
 * render-lesson-markdown.ts); the list holds the first 200 active lessons in rank order.
 */
import { ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { renderLessonMarkdown } from '../../core/views/render-lesson-markdown.js';
import type { McpDeps } from './create-mcp-server.js';
import type { McpSession } from './create-mcp-session.js';

const LISTED = 200;

export function registerLessonResource(server: McpServer, deps: McpDeps, session: McpSession): void {
  server.registerResource(
    'lesson',
    new ResourceTemplate('lesson://{id}', {
      list: async () => {
        const listed = await session.run((ws) =>
          ws.index.list({ status: 'active' }, deps.now(), ws.halfLifeDays),
        );
        return {
          resources: listed.slice(0, LISTED).map((item) => ({
            uri: `lesson://${item.lesson.id}`,
            name: item.lesson.slug,
            description: item.lesson.summary,
            mimeType: 'text/markdown',
          })),
        };
      },
    }),
    {
      description: 'One lesson as markdown: summary, scope, mistake, remediation, body.',
      mimeType: 'text/markdown',
    },
    async (uri, variables) => {
      const id = String(variables.id ?? '');
      // lesson-writes loads YAML and the lesson schema: only once a lesson is read
      const target = await session.run(async (ws) =>
        (await import('../../store/lessons/lesson-writes.js')).resolveLesson(ws, id),
      );
      return {
        contents: [{ uri: uri.href, mimeType: 'text/markdown', text: renderLessonMarkdown(target.lesson) }],
      };
    },
  );
}
