/**
 * The `review-lessons-for-path` prompt of `lore mcp`: the lessons that apply to a path, and what
 * to do with each (src/core/views/render-path-review.ts).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { renderPathReview } from '../../core/views/render-path-review.js';
import { repoPathOf } from '../../store/inject/learnings-sidecar.js';
import type { McpDeps } from './create-mcp-server.js';
import type { McpSession } from './create-mcp-session.js';

export function registerReviewPrompt(server: McpServer, deps: McpDeps, session: McpSession): void {
  server.registerPrompt(
    'review-lessons-for-path',
    {
      description: 'Review the lessons that apply to a file path before working on it.',
      argsSchema: { path: z.string().min(1).describe('a file path in this repository') },
    },
    async ({ path }) => {
      const listed = await session.run((ws) =>
        ws.index.list({ status: 'active', path: repoPathOf(ws, path) ?? path }, deps.now(), ws.halfLifeDays),
      );
      const items = listed.map((item) => ({
        id: item.lesson.id,
        summary: item.lesson.summary,
        matchedBy: item.matchedBy,
      }));
      return {
        messages: [{ role: 'user', content: { type: 'text', text: renderPathReview(path, items) } }],
      };
    },
  );
}
