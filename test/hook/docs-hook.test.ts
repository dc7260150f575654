// Docs in the hook: a doc whose `paths` cover the file an agent is about to touch is offered next
// to the lessons for it, under the same budget and session dedup, by the committed hook bundle;
// the background rebuilder (lore-manifest.cjs) includes docs too, and `lore explain` shows them.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { docManifestId } from '../../src/core/manifest/build-manifest.js';
import { createSandbox } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';
import { payload } from '../helpers/hook-payloads.js';
import {
  fileAppears,
  fileDisappears,
  hookEnv,
  inRepo,
  MANIFEST_BUNDLE,
  output,
  runHookBundle,
} from '../helpers/hook.js';

const DOC = 'docs/design/auth/sessions.md';
const DOC_SUMMARY = 'Sessions refresh through the gateway, never in the browser';

function docsSandbox(): { sandbox: Sandbox; lesson: string } {
  const sandbox = createSandbox();
  const files: Record<string, string> = {
    [DOC]: `---\ntype: design\nsummary: ${DOC_SUMMARY}\npaths: ["src/auth/**"]\n---\n# Sessions\n`,
    'docs/glossary.md': '# Terms\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(sandbox.inRepo(path)), { recursive: true });
    writeFileSync(sandbox.inRepo(path), text);
  }
  const lesson = sandbox.add(['--summary', 'never log access tokens', '--path', 'src/auth/**']);
  return { sandbox, lesson };
}

function edit(sandbox: Sandbox, file: string, session = 's1') {
  const recorded = payload('claude', 'PreToolUse', 'Bash');
  return inRepo(sandbox, recorded, {
    session_id: session,
    tool_name: 'Edit',
    tool_input: { file_path: sandbox.inRepo(file), old_string: 'a', new_string: 'b' },
  });
}

const context = (sandbox: Sandbox, file: string, session?: string) =>
  output(runHookBundle(sandbox, edit(sandbox, file, session))).hookSpecificOutput?.additionalContext ?? '';

describe('docs in the hook', () => {
  it('offers the doc covering the edited file next to its lesson, once per session', () => {
    const { sandbox, lesson } = docsSandbox();
    const first = context(sandbox, 'src/auth/login.ts');
    expect(first).toContain(`[lore ${lesson}] never log access tokens`);
    expect(first).toContain(`[lore doc ${DOC}] ${DOC_SUMMARY}`);
    expect(first).toContain(`lore docs show ${DOC}`);
    expect(first.indexOf(lesson)).toBeLessThan(first.indexOf(DOC));
    expect(runHookBundle(sandbox, edit(sandbox, 'src/auth/login.ts')).stdout.trim()).toBe('{}');
    expect(runHookBundle(sandbox, edit(sandbox, 'src/billing/x.ts', 's2')).stdout.trim()).toBe('{}');
    expect(context(sandbox, 'src/auth/other.ts', 's3')).toContain(`[lore doc ${DOC}]`);
  });

  it('shares the lessons budget: with one item per call the lesson wins and the doc waits', () => {
    const { sandbox, lesson } = docsSandbox();
    writeFileSync(sandbox.inRepo('.lore', 'config.yaml'), 'inject:\n  maxLessons: 1\n');
    expect(sandbox.run(['sync']).code).toBe(0);
    const first = context(sandbox, 'src/auth/login.ts');
    expect(first).toContain(lesson);
    expect(first).not.toContain(DOC);
    expect(context(sandbox, 'src/auth/login.ts')).toContain(`[lore doc ${DOC}]`);
    const explain = sandbox.run(['explain', '--tool', 'Edit', '--path', 'src/auth/login.ts', '--json']);
    expect(explain.json<{ included: { id: string }[] }>().included.map((item) => item.id)).toEqual([lesson]);
    writeFileSync(sandbox.inRepo('.lore', 'config.yaml'), 'inject:\n  maxLessons: 2\n');
    const both = sandbox.run(['explain', '--tool', 'Edit', '--path', 'src/auth/login.ts', '--json']);
    expect(both.json<{ included: { id: string }[] }>().included.map((item) => item.id)).toEqual([
      lesson,
      docManifestId(DOC),
    ]);
  });

  it('the background rebuilder includes docs, and session start never lists them', async () => {
    const { sandbox } = docsSandbox();
    const manifest = join(sandbox.repo, '.lore', 'cache', 'manifest');
    rmSync(manifest, { recursive: true, force: true });
    rmSync(join(sandbox.repo, '.lore', 'cache', 'docs-records.json'), { force: true });
    const appeared = fileAppears(join(manifest, 'head.json'));
    expect(runHookBundle(sandbox, edit(sandbox, 'src/auth/login.ts')).stdout.trim()).toBe('{}');
    await appeared;
    await fileDisappears(join(manifest, 'rebuild.lock'));
    expect(context(sandbox, 'src/auth/login.ts', 's9')).toContain(`[lore doc ${DOC}]`);
    const start = inRepo(sandbox, payload('claude', 'SessionStart'), { session_id: 's10' });
    expect(runHookBundle(sandbox, start).stdout).not.toContain('lore doc');
  });

  it('the background full check notices an edited doc although no lesson changed', () => {
    const { sandbox } = docsSandbox();
    const recheck = () =>
      spawnSync(process.execPath, [MANIFEST_BUNDLE, '--cwd', sandbox.repo, '--if-changed'], {
        env: { ...hookEnv(sandbox), LORE_DEBUG: '1' },
        encoding: 'utf8',
      }).stderr;
    expect(recheck()).toContain('"rebuilt":false');
    mkdirSync(sandbox.inRepo('docs/runbooks'));
    writeFileSync(
      sandbox.inRepo('docs/runbooks/deploy.md'),
      '---\ntype: runbook\nsummary: Deploying auth needs the key rotation first\npaths: ["src/auth/keys.ts"]\n---\n',
    );
    expect(recheck()).toContain('"rebuilt":true');
    expect(context(sandbox, 'src/auth/keys.ts', 's20')).toContain('[lore doc docs/runbooks/deploy.md]');
    expect(recheck()).toContain('"rebuilt":false');
  });
});
