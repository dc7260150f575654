/**
 * `lore sync --embed`: the configured provider, a progress line on a TTY, and the report as text.
 * Loaded only with --embed.
 */
import { LoreError } from '../core/errors.js';
import { embedWorkspace } from '../store/embed/embed-workspace.js';
import type { EmbedReport } from '../store/embed/embed-workspace.js';
import { EMBEDDINGS_HELP, EMBEDDINGS_OFF, openEmbeddingProvider } from '../store/embed/embedding-settings.js';
import type { Workspace } from '../store/workspace/workspace.js';
import type { CommandContext } from './command.js';

export async function embedCommand(
  ctx: CommandContext,
  ws: Workspace,
): Promise<{ report: EmbedReport; text: string }> {
  const settings = openEmbeddingProvider(ws, ctx.env);
  if (settings === undefined) throw new LoreError('invalid', EMBEDDINGS_OFF, { hint: EMBEDDINGS_HELP });
  const showProgress = ctx.isTTY && !ctx.json;
  const report = await embedWorkspace(
    ws,
    settings,
    showProgress
      ? (done, total) => process.stderr.write(`\r\u001b[2Kembedding ${done}/${total} lesson text(s)`)
      : undefined,
  );
  if (showProgress) process.stderr.write('\r\u001b[2K');
  const docs =
    report.docs === undefined || report.docs.docs === 0
      ? ''
      : `; docs: ${report.docs.embedded} embedded, ${report.docs.cached} cached`;
  const head = `embeddings (${report.provider}, ${report.model}${report.dimensions === null ? '' : `, ${report.dimensions} dimensions`}): ${report.embedded} embedded, ${report.cached} cached; ${report.lessons.withVectors} of ${report.lessons.total} lesson(s) searchable by meaning${docs}`;
  const text =
    report.failure === undefined
      ? head
      : `${head}\nthe embedding endpoint ${report.endpoint} failed: ${report.failure.message}; ${report.failure.waiting} text(s) wait for the next \`lore sync --embed\` (lessons stay searchable by their words)`;
  return { report, text };
}
