// Bad input for the spawned hook: whatever arrives, it prints {} or valid JSON under 10,000
// characters and exits 0, quickly.
import { spawnSync } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';
import { claudePayloads, codexPayloads, payload } from '../helpers/hook-payloads.js';
import { fileDisappears, inRepo, runHookBundle } from '../helpers/hook.js';
import type { HookResult } from '../helpers/hook.js';
import { encodePack } from '../../src/store/hook-state/manifest-pack.js';

function expectSafe(result: HookResult): void {
  expect(result.code).toBe(0);
  expect(result.stdout.length).toBeLessThanOrEqual(10_001);
  const parsed = JSON.parse(result.stdout) as unknown;
  expect(typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)).toBe(true);
  expect(result.ms).toBeLessThan(5_000);
}

function busySandbox(): Sandbox {
  const sandbox = createSandbox();
  sandbox.add([
    '--summary',
    `${'long lesson '.repeat(20)}`.trim(),
    '--body',
    'b'.repeat(9000),
    '--command',
    '.',
    '--path',
    '**',
  ]);
  sandbox.add([
    '--summary',
    'guard everything with x',
    '--type',
    'guard',
    '--command',
    'x',
    '--remediation',
    'r'.repeat(12000),
  ]);
  sandbox.add(['--summary', 'any tool', '--tool', 'Bash', '--tool', 'Edit']);
  return sandbox;
}

describe('hook fuzzing (spawned bundle)', () => {
  // Each test makes its own sandbox; payloads are moved into it when the test runs.
  let sandbox: Sandbox;
  const fresh = () => {
    sandbox = busySandbox();
  };

  it('random bytes, truncated JSON and mangled payloads', () => {
    fresh();
    const recorded = [...claudePayloads, ...codexPayloads].map((p) => JSON.stringify(inRepo(sandbox, p)));
    const input = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
      fc.tuple(fc.constantFrom(...recorded), fc.nat()).map(([text, n]) => text.slice(0, n % text.length)),
      fc
        .tuple(
          fc.constantFrom(...recorded),
          fc.constantFrom(
            'hook_event_name',
            'tool_name',
            'tool_input',
            'cwd',
            'session_id',
            'source',
            'prompt',
            'agent_id',
          ),
          fc.jsonValue({ maxDepth: 2 }),
        )
        .map(([text, key, value]) => JSON.stringify({ ...(JSON.parse(text) as object), [key]: value })),
    );
    fc.assert(
      fc.property(input, (stdin) => {
        expectSafe(runHookBundle(sandbox, stdin));
      }),
      { numRuns: 40 },
    );
  });

  type Make = (sb: Sandbox) => string | object;
  const bashCall = (sb: Sandbox, fields: Record<string, unknown>) => ({
    ...inRepo(sb, payload('claude', 'PreToolUse', 'Bash')),
    ...fields,
  });
  it.each<[string, Make]>([
    ['empty stdin', () => ''],
    ['JSON null', () => 'null'],
    ['an array', () => '[1,2]'],
    [
      'an unknown event',
      (sb) => ({ ...inRepo(sb, payload('claude', 'SessionStart')), hook_event_name: 'Notification' }),
    ],
    ['an unknown tool', (sb) => bashCall(sb, { tool_name: 'Frobnicate' })],
    ['missing fields', () => ({ hook_event_name: 'PreToolUse' })],
    ['a 10 MB command', (sb) => bashCall(sb, { tool_input: { command: `x${'y'.repeat(10_000_000)}` } })],
    ['a 1 MB command', (sb) => bashCall(sb, { tool_input: { command: `x ${'y '.repeat(500_000)}` } })],
    [
      'a huge prompt',
      (sb) => ({ ...inRepo(sb, payload('codex', 'UserPromptSubmit')), prompt: 'pytest '.repeat(200_000) }),
    ],
    ['a cwd outside any project', () => ({ ...payload('claude', 'PreToolUse', 'Bash'), cwd: '/' })],
  ])('%s', (_name, stdin) => {
    fresh();
    const input = stdin(sandbox);
    expectSafe(runHookBundle(sandbox, typeof input === 'string' ? input : JSON.stringify(input)));
  });

  it('the budget holds: long lessons and a long guard reason stay under 10,000 characters', () => {
    fresh();
    const deny = runHookBundle(
      sandbox,
      inRepo(sandbox, payload('claude', 'PreToolUse', 'Bash'), {
        session_id: 'deny',
        tool_input: { command: 'x' },
      }),
    );
    expectSafe(deny);
    expect(deny.stdout).toContain('"permissionDecision":"deny"');
    const context = runHookBundle(
      sandbox,
      inRepo(sandbox, payload('claude', 'PreToolUse', 'Bash'), {
        session_id: 'ctx',
        tool_input: { command: 'ls' },
      }),
    );
    expectSafe(context);
    expect(context.stdout).toContain('additionalContext');
  });

  it('a FIFO where the audit log goes: the answer comes at once, nothing waits for a reader', () => {
    fresh();
    expect(sandbox.run(['sync']).code).toBe(0);
    const audit = join(sandbox.repo, '.lore', 'cache', 'audit.jsonl');
    rmSync(audit, { force: true });
    expect(spawnSync('mkfifo', [audit]).status).toBe(0);
    const answer = runHookBundle(
      sandbox,
      inRepo(sandbox, payload('claude', 'PreToolUse', 'Bash'), {
        session_id: 'fifo',
        tool_input: { command: 'ls' },
      }),
    );
    expectSafe(answer);
    expect(answer.ms).toBeLessThan(3_000);
    expect(answer.stdout).toContain('additionalContext');
    expect(lstatSync(audit).isFIFO()).toBe(true);
  });

  it('a corrupt manifest', async () => {
    fresh();
    const dir = join(sandbox.repo, '.lore', 'cache', 'manifest');
    for (const name of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (name.isFile() && name.name.endsWith('.json'))
        writeFileSync(join(name.parentPath, name.name), '{"version":1,"generation":"../x","literals":');
    }
    expectSafe(
      runHookBundle(
        sandbox,
        inRepo(sandbox, payload('claude', 'PreToolUse', 'Bash'), {
          session_id: 'corrupt',
          tool_input: { command: 'ls' },
        }),
      ),
    );
    await fileDisappears(join(dir, 'rebuild.lock'));
  });

  it.each([
    [
      'records of the wrong shape',
      () => encodePack([{ id: 1, n: 0, commands: [5], pathRegexes: 'x' }, null, 7]),
    ],
    [
      'records that are not JSON',
      () => Buffer.concat([encodePack([{ n: 0 }, { n: 1 }]).subarray(0, 20), Buffer.from('{{{{{{{{{{{')]),
    ],
    ['offsets past the end', () => Buffer.from('LPK1\xff\xff\xff\x7f\0\0\0\0\xff\xff\xff\xff', 'latin1')],
    ['an empty file', () => Buffer.alloc(0)],
  ])('corrupt packs behind a valid head: %s', (_name, bytes) => {
    const other = busySandbox();
    expect(other.run(['sync']).code).toBe(0); // a full build: every lesson in the packs
    const dir = join(other.repo, '.lore', 'cache', 'manifest');
    let corrupted = 0;
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (entry.isFile() && entry.name.endsWith('.pack')) {
        writeFileSync(join(entry.parentPath, entry.name), bytes());
        corrupted += 1;
      }
    }
    expect(corrupted).toBeGreaterThanOrEqual(2);
    for (const command of ['ls x', 'pytest -x', 'git stash']) {
      expectSafe(
        runHookBundle(
          other,
          inRepo(other, payload('claude', 'PreToolUse', 'Bash'), { tool_input: { command } }),
        ),
      );
    }
  });

  it.each([
    [
      'not JSON',
      () => Buffer.concat([encodePack([{ n: 0 }, { n: 1 }]).subarray(0, 20), Buffer.from('{{{{{{{{{{{')]),
    ],
    ['an empty file', () => Buffer.alloc(0)],
  ])('a damaged lesson pack (%s) is rebuilt, and lessons come back', async (_name, bytes) => {
    const other = busySandbox();
    expect(other.run(['sync']).code).toBe(0);
    const dir = join(other.repo, '.lore', 'cache', 'manifest');
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
      if (entry.isFile() && entry.name === 'lessons.pack')
        writeFileSync(join(entry.parentPath, entry.name), bytes());
    const call = (session: string) =>
      runHookBundle(
        other,
        inRepo(other, payload('claude', 'PreToolUse', 'Bash'), {
          session_id: session,
          tool_input: { command: 'ls' },
        }),
      );
    expectSafe(call('while-damaged'));
    // the background rebuild the damaged call asked for: within seconds, calls inject again
    let answer = '';
    for (let attempt = 0; attempt < 60 && !answer.includes('additionalContext'); attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      answer = call(`after-${attempt}`).stdout;
    }
    expect(answer).toContain('additionalContext');
  });

  it.each([
    ['missing', undefined],
    ['cut short', (bytes: Buffer) => bytes.subarray(0, bytes.length - 5)],
    ['garbage', () => Buffer.from('LIX1 not an index at all')],
  ])(
    'a literal index file that is %s behind a valid head: {} and a rebuild',
    async (_name, mangle?: (bytes: Buffer) => Buffer) => {
      const other = busySandbox();
      other.add([
        '--summary',
        'gitleaks protect is gone',
        '--type',
        'guard',
        '--command',
        'gitleaks\\s+protect',
      ]);
      expect(other.run(['sync']).code).toBe(0);
      const dir = join(other.repo, '.lore', 'cache', 'manifest');
      const head = JSON.parse(readFileSync(join(dir, 'head.json'), 'utf8')) as {
        generation: string;
        index: Record<string, string>;
      };
      const file = join(dir, head.generation, head.index.c as string);
      if (mangle === undefined) rmSync(file);
      else writeFileSync(file, mangle(readFileSync(file)));
      const call = (session: string) =>
        runHookBundle(
          other,
          inRepo(other, payload('claude', 'PreToolUse', 'Bash'), {
            session_id: session,
            tool_input: { command: 'gitleaks protect --staged' },
          }),
        );
      const broken = call('broken');
      expectSafe(broken);
      expect(broken.stdout.trim()).toBe('{}');
      await fileDisappears(join(dir, 'rebuild.lock'));
      // rebuilt: the guard denies again
      expect(call('rebuilt').stdout).toContain('"permissionDecision":"deny"');
    },
  );

  it('an unwritable temp directory: guards still deny, advice is held back', () => {
    fresh();
    const blocker = join(sandbox.base, 'not-a-dir');
    writeFileSync(blocker, '');
    const env = { TMPDIR: join(blocker, 'tmp') };
    const deny = runHookBundle(
      sandbox,
      inRepo(sandbox, payload('claude', 'PreToolUse', 'Bash'), {
        session_id: 'ro',
        tool_input: { command: 'x' },
      }),
      { env },
    );
    expectSafe(deny);
    expect(deny.stdout).toContain('deny');
    const advice = runHookBundle(
      sandbox,
      inRepo(sandbox, payload('claude', 'PreToolUse', 'Bash'), {
        session_id: 'ro',
        tool_input: { command: 'ls' },
      }),
      { env },
    );
    expect([advice.code, advice.stdout.trim()]).toEqual([0, '{}']);
  });
});
