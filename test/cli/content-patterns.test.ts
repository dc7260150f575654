// `lore add --content` and `lore explain --content`, spawned from dist/: content patterns written
// to lesson.yaml, refused like command patterns, and matched by the same pipeline as the hook's.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { createSandbox } from '../helpers/cli.js';

type ExplainJson = {
  content: string | null;
  included: { id: string; matched_by: string[] }[];
  denied: { id: string; matched_by: string[] }[];
  permissionDecisionReason: string | null;
};

describe('lore add --content', () => {
  it('writes the patterns (repeatable, spaces kept) as contents in lesson.yaml', () => {
    const sandbox = createSandbox();
    const id = sandbox.add([
      '--summary',
      'no print in src',
      '--content',
      '^  print\\(',
      '--content',
      'pdb\\.set_trace',
      '--path',
      'src/**',
    ]);
    const yaml = readFileSync(sandbox.lessonFile(id), 'utf8');
    expect((parseYaml(yaml) as { contents: string[] }).contents).toEqual(['^  print\\(', 'pdb\\.set_trace']);
    const shown = sandbox.run(['show', id, '--json']).json<{ lesson: { contents: string[] } }>();
    expect(sandbox.run(['show', id]).stdout).toContain('contents: ^  print\\(, pdb\\.set_trace');
    expect(shown.lesson.contents).toEqual(['^  print\\(', 'pdb\\.set_trace']);
  });

  it('refuses a bad pattern naming the flag, and writes nothing', () => {
    const sandbox = createSandbox();
    const bad = sandbox.run(['add', '--summary', 'x', '--content', 'ok', '--content', '(a+)+$']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--content #2: the regular expression /(a+)+$/ can backtrack');
    const invalid = sandbox.run(['add', '--summary', 'x', '--content', '(']);
    expect([invalid.code, invalid.stderr]).toEqual([
      1,
      expect.stringMatching(/--content #1: is not a valid regular expression/),
    ]);
    expect(sandbox.run(['list', '--json']).json<{ lessons: unknown[] }>().lessons).toEqual([]);
  });
});

describe('lore explain --content', () => {
  function sandboxWithLessons() {
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

  it('matches the written text and says so in matched_by', () => {
    const { sandbox, random } = sandboxWithLessons();
    const run = sandbox.run([
      'explain',
      '--tool',
      'Write',
      '--path',
      'src/lib/ids.ts',
      '--content',
      'export const id = () => Math.random().toString(36);',
      '--json',
    ]);
    expect(run.code).toBe(0);
    const data = run.json<ExplainJson>();
    expect(data.content).toContain('Math.random()');
    expect(data.included.map((i) => [i.id, i.matched_by])).toEqual([
      [random, ['content:Math\\.random\\(\\)', 'path:src/**']],
    ]);
    const text = sandbox.run([
      'explain',
      '--tool',
      'Write',
      '--path',
      'src/lib/ids.ts',
      '--content',
      'Math.random()',
    ]);
    expect(text.stdout).toContain(`${random}`);
    expect(text.stdout).toContain('content:Math\\.random\\(\\)');
  });

  it('without the text, or outside the paths, the content lesson stays quiet', () => {
    const { sandbox } = sandboxWithLessons();
    const noContent = sandbox.run(['explain', '--tool', 'Write', '--path', 'src/lib/ids.ts', '--json']);
    expect(noContent.json<ExplainJson>().included).toEqual([]);
    const elsewhere = sandbox.run([
      'explain',
      '--tool',
      'Edit',
      '--path',
      'scripts/x.ts',
      '--content',
      'Math.random()',
      '--json',
    ]);
    expect(elsewhere.json<ExplainJson>().included).toEqual([]);
  });

  it('a content guard denies the write', () => {
    const { sandbox, key } = sandboxWithLessons();
    const run = sandbox.run([
      'explain',
      '--tool',
      'Edit',
      '--path',
      'config/app.ini',
      '--content',
      'aws_access_key_id = AKIAABCDEFGHIJKLMNOP',
      '--json',
    ]);
    const data = run.json<ExplainJson>();
    expect(data.denied).toEqual([{ id: key, matched_by: ['content:AKIA[0-9A-Z]{16}'] }]);
    expect(data.permissionDecisionReason).toContain('never write an AWS access key');
  });
});
