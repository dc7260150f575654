// `lore distill` through the print-mode provider with the pinned agent CLIs, configured as the
// README shows: `claude -p` and `codex exec -` read the prompt on stdin and answer through the scripted model server, whose
// reply is the distilled lesson.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { writeCandidate } from '../helpers/distill-candidate.js';
import {
  CLAUDE_BIN,
  CODEX_BIN,
  claudeEnv,
  codexEnv,
  createWorkspace,
  LORE_BIN,
  runAgent,
} from './harness.js';
import type { Workspace } from './harness.js';
import { startModelServer } from './model-server.js';

const LESSON = {
  summary: 'Run `git pull --rebase` before `git push` when the remote is ahead (DISTILL_E2E)',
  context: 'Pushing to a shared branch.',
  observation: 'The push was rejected: the remote had commits the local branch lacked.',
  implication: 'Retrying the push fails the same way.',
  action: 'Pull with --rebase, then push.',
  trigger: { commands: ['^git\\s+push\\b'], paths: [], tools: ['Bash'] },
  tags: ['tool:git'],
};

function configure(ws: Workspace, command: readonly string[]): void {
  const dir = join(ws.home, '.lore');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'config.yaml'),
    JSON.stringify({ distill: { provider: 'command', command, timeoutSeconds: 60 } }),
  );
}

describe('lore distill with an agent CLI in print mode', () => {
  it.each([
    ['claude -p', [CLAUDE_BIN, '-p'], claudeEnv],
    ['codex exec -', [process.execPath, CODEX_BIN, 'exec', '-'], codexEnv],
  ] as const)(
    '%s answers through the scripted model, and the lesson is applied',
    async (_name, argv, agentEnv) => {
      const ws = createWorkspace();
      const file = writeCandidate(ws.repo, '0000000001');
      const server = await startModelServer({ steps: [{ text: JSON.stringify(LESSON) }] });
      configure(ws, argv);
      const env = agentEnv(ws, server);
      const exit = await runAgent(process.execPath, [LORE_BIN, 'distill', '--json'], ws.repo, env);
      await server.close();

      expect(exit.code, exit.stderr).toBe(0);
      const run = JSON.parse(exit.stdout) as { results: { outcome: string; note?: string }[] };
      expect(run.results[0], JSON.stringify(run.results[0])).toMatchObject({ outcome: 'applied' });
      expect(server.requests.some((request) => request.raw.includes('git push origin main'))).toBe(true);
      const record = parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      expect(record).toMatchObject({ summary: LESSON.summary, action: LESSON.action });
    },
  );
});
