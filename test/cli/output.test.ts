/**
 * What the CLI prints goes straight to the file descriptor (src/cli/direct-output.ts): complete
 * through a pipe, and a reader that goes away early (`lore list --json | head -c 100`) ends the
 * command quietly, with its own exit code, instead of an unhandled EPIPE stack trace.
 */
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { createSandbox, seedLessons } from '../helpers/cli.js';
import type { ListJson } from '../helpers/cli.js';

const ids = Array.from({ length: 300 }, (_, i) => `aaaaa${String(i).padStart(5, '0')}`);

function seeded() {
  const sandbox = createSandbox();
  seedLessons(
    sandbox,
    ids.map((id, i) => ({
      id,
      summary: `lesson ${i}: run the linter before every push`,
      body: 'why '.repeat(300),
    })),
  );
  return sandbox;
}

describe('output through a pipe', () => {
  it('is complete when it is bigger than the pipe holds', () => {
    const sandbox = seeded();
    const run = sandbox.run(['list', '--json']);
    expect(run.code).toBe(0);
    expect(run.stdout.length).toBeGreaterThan(1 << 16);
    expect(
      run
        .json<ListJson>()
        .lessons.map((lesson) => lesson.id)
        .sort(),
    ).toEqual(ids);
  });

  it('a reader that closes early ends the command quietly, exit 0', async () => {
    const sandbox = seeded();
    const child = sandbox.spawn(['list', '--json']);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    await once(child.stdout as NodeJS.ReadableStream, 'data');
    child.stdout?.destroy();
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
