/**
 * A hook reading the manifest while the background rebuilder (plugin/bin/lore-manifest.cjs) writes
 * new ones, again and again: every head it reads names literal index files that are whole (a new
 * generation's files are written before the head that names them, and the previous generation
 * stays), so each read finds the lesson, or at worst (two rebuilds between its reading the head
 * and the index) finds the files gone, which the hook answers with `{}`; never a half-written file.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
import { literalTexts } from '../../src/core/inject/candidate-ordinals.js';
import { decodePostings } from '../../src/core/inject/postings.js';
import { openManifestReader, readManifestHead } from '../../src/store/hook-state/manifest-files.js';
import { LiteralIndexError } from '../../src/store/hook-state/literal-index.js';

const REBUILDER = fileURLToPath(new URL('../../plugin/bin/lore-manifest.cjs', import.meta.url));

describe('a reader racing rebuilds', () => {
  it('never sees a half-written literal index', async () => {
    const sandbox = createSandbox();
    const id = sandbox.add(['--summary', 'gitleaks protect is gone', '--command', 'gitleaks\\s+protect']);
    for (let i = 0; i < 20; i += 1) sandbox.add(['--summary', `lesson ${i}`, '--path', `src/m${i}/**/*.ts`]);
    const cacheDir = join(sandbox.repo, '.lore', 'cache');
    const script = `for (let i = 0; i < 25; i += 1) require('node:child_process').spawnSync(process.execPath, [${JSON.stringify(REBUILDER)}, '--cwd', ${JSON.stringify(sandbox.repo)}], { stdio: 'ignore', env: ${JSON.stringify(sandbox.env)} });`;
    const writer = spawn(process.execPath, ['-e', script], { stdio: 'ignore' });
    const done = new Promise<void>((resolve) => writer.on('exit', () => resolve()));
    let finished = false;
    void done.then(() => (finished = true));
    const outcomes = { found: 0, gone: 0, corrupt: 0, wrong: 0 };
    const texts = literalTexts(
      {
        event: 'PreToolUse',
        sessionId: 's',
        agentId: 'main',
        cwd: sandbox.repo,
        tool: 'Bash',
        command: 'gitleaks protect',
      },
      [],
    );
    while (!finished) {
      const head = readManifestHead(cacheDir);
      if (head !== undefined) {
        const reader = openManifestReader(cacheDir, head);
        try {
          const ordinals: number[] = [];
          reader.literals(texts, (postings) => decodePostings(postings, ordinals));
          if (ordinals.some((n) => reader.readLesson(n)?.id === id)) outcomes.found += 1;
          else outcomes.wrong += 1;
        } catch (error) {
          if (error instanceof LiteralIndexError) outcomes.corrupt += 1;
          else if ((error as NodeJS.ErrnoException).code === 'ENOENT') outcomes.gone += 1;
          else throw error;
        } finally {
          reader.close();
        }
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(outcomes.corrupt).toBe(0);
    expect(outcomes.wrong).toBe(0);
    expect(outcomes.found).toBeGreaterThan(20);
  }, 120_000);
});
