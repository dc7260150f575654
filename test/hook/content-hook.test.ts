// The committed hook bundle, spawned as Claude Code and Codex spawn it, on a file-writing call:
// lessons with content patterns match the text it would write (a real Write payload; a Codex patch).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';
import { payload } from '../helpers/hook-payloads.js';
import { inRepo, output, runHookBundle } from '../helpers/hook.js';

const recordedWrite = JSON.parse(
  readFileSync(fileURLToPath(new URL('../fixtures/hook-payloads/cc-write.jsonl', import.meta.url)), 'utf8'),
) as Record<string, unknown> & { tool_input: { content: string } };

function contentSandbox(): { sandbox: Sandbox; random: string; key: string } {
  const sandbox = createSandbox();
  const random = sandbox.add([
    '--summary',
    'ids from Math.random collide: use crypto.randomUUID()',
    '--content',
    'Math\\.random\\(\\)',
    '--path',
    'src/**',
  ]);
  const key = sandbox.add([
    '--summary',
    'never write an AWS access key into a file',
    '--type',
    'guard',
    '--content',
    'AKIA[0-9A-Z]{16}',
  ]);
  return { sandbox, random, key };
}

function write(sandbox: Sandbox, path: string, content: string) {
  return inRepo(sandbox, recordedWrite, { tool_input: { file_path: sandbox.inRepo(path), content } });
}

describe('content patterns in the hook', () => {
  it('a recorded Write whose content matches gets the lesson, with the same text elsewhere or without it {}', () => {
    const { sandbox, random } = contentSandbox();
    const real = recordedWrite.tool_input.content;
    const hit = runHookBundle(sandbox, write(sandbox, 'src/lib/utils.ts', real));
    expect(hit.code).toBe(0);
    expect(output(hit).hookSpecificOutput?.additionalContext).toContain(`[lore ${random}]`);
    const clean = runHookBundle(
      sandbox,
      write(sandbox, 'src/lib/other.ts', real.replace('Math.random()', 'crypto.randomUUID()')),
    );
    expect([clean.code, clean.stdout.trim()]).toEqual([0, '{}']);
    const outside = runHookBundle(sandbox, write(sandbox, 'scripts/gen.ts', real));
    expect([outside.code, outside.stdout.trim()]).toEqual([0, '{}']);
  });

  it('a content guard denies the Write', () => {
    const { sandbox, key } = contentSandbox();
    const result = runHookBundle(sandbox, write(sandbox, 'config/app.ini', 'key = AKIAABCDEFGHIJKLMNOP\n'));
    expect(result.code).toBe(0);
    const out = output(result).hookSpecificOutput;
    expect(out?.permissionDecision).toBe('deny');
    expect(out?.permissionDecisionReason).toContain(key);
  });

  it('a match past the first 64 KB of a huge Write is not looked for', () => {
    const { sandbox } = contentSandbox();
    const huge = `${'// filler line\n'.repeat(5000)}const id = Math.random();\n`;
    const result = runHookBundle(sandbox, write(sandbox, 'src/big.ts', huge));
    expect([result.code, result.stdout.trim()]).toEqual([0, '{}']);
  });

  it('a Codex apply_patch is matched on its added lines, not its removed ones', () => {
    const { sandbox, random } = contentSandbox();
    const recorded = payload('codex', 'PreToolUse', 'Bash');
    const patch = (line: string) =>
      ['*** Begin Patch', '*** Update File: src/ids.ts', '@@', line, '*** End Patch'].join('\n');
    const added = runHookBundle(
      sandbox,
      inRepo(sandbox, recorded, {
        tool_name: 'apply_patch',
        tool_input: { command: patch('+export const id = Math.random();') },
      }),
      { args: ['--host', 'codex'] },
    );
    expect(output(added).hookSpecificOutput?.additionalContext).toContain(`[lore ${random}]`);
    const removed = runHookBundle(
      sandbox,
      inRepo(sandbox, recorded, {
        tool_name: 'apply_patch',
        tool_input: { command: patch('-export const id = Math.random();') },
      }),
      { args: ['--host', 'codex'] },
    );
    expect(removed.stdout.trim()).toBe('{}');
  });
});
