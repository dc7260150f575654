// Content patterns (`contents`): regexes over the text an Edit or Write would write. The parse
// stage reads that text from each host's input (capped), the manifest files a content lesson
// under the writing tools, and the matcher ANDs a content hit with the lesson's paths.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeCodexPayload } from '../../src/adapters/codex/hook-adapter.js';
import { normalizeCursorPayload } from '../../src/adapters/cursor/hook-adapter.js';
import { normalizeGeminiPayload } from '../../src/adapters/gemini/hook-adapter.js';
import { manifestReaders } from '../../src/core/inject/candidate-ordinals.js';
import { parseHookPayload } from '../../src/core/inject/parse-hook-input.js';
import { selectLessons } from '../../src/core/inject/select-lessons.js';
import type { HookEvent } from '../../src/core/inject/types.js';
import { CONTENT_LIMIT, writtenContent } from '../../src/core/inject/written-content.js';
import { lessonKeys } from '../../src/core/manifest/build-manifest.js';
import { LessonSchema } from '../../src/core/lesson/schema.js';
import { payload } from '../helpers/hook-payloads.js';
import { lesson, manifestOf } from '../helpers/manifest.js';

const writePayload = JSON.parse(
  readFileSync(fileURLToPath(new URL('../fixtures/hook-payloads/cc-write.jsonl', import.meta.url)), 'utf8'),
) as Record<string, unknown>;

describe('the written text of a tool call', () => {
  const big = 'x'.repeat(CONTENT_LIMIT + 10);
  it.each([
    ['Write content', 'Write', { file_path: 'a.ts', content: 'A' }, 'A'],
    [
      'Edit new_string (not old_string)',
      'Edit',
      { file_path: 'a.ts', old_string: 'O', new_string: 'N' },
      'N',
    ],
    [
      'MultiEdit edits[].new_string',
      'MultiEdit',
      { file_path: 'a.ts', edits: [{ old_string: 'a', new_string: 'one' }, { new_string: 'two' }, null] },
      'one\ntwo',
    ],
    [
      'NotebookEdit new_source',
      'NotebookEdit',
      { notebook_path: 'n.ipynb', new_source: 'print(1)' },
      'print(1)',
    ],
    ['a read writes nothing', 'Read', { file_path: 'a.ts', content: 'A' }, undefined],
    ['an empty Write', 'Write', { file_path: 'a.ts', content: '' }, undefined],
    ['a non-string content', 'Write', { file_path: 'a.ts', content: 42 }, undefined],
  ] as const)('%s', (_name, tool, input, want) => {
    expect(writtenContent(tool, input as Record<string, unknown>)).toBe(want);
  });

  it('is cut at CONTENT_LIMIT characters, across MultiEdit parts too', () => {
    expect(writtenContent('Write', { content: big })).toHaveLength(CONTENT_LIMIT);
    const multi = writtenContent('MultiEdit', { edits: [{ new_string: big }, { new_string: 'tail' }] });
    expect(multi).toHaveLength(CONTENT_LIMIT);
    expect(multi).not.toContain('tail');
  });

  it('is read from a real Claude Code Write payload', () => {
    const event = parseHookPayload(writePayload);
    expect(event?.tool).toBe('Write');
    expect(event?.paths).toEqual(['/home/dev/work/proj/src/lib/utils.ts']);
    expect(event?.content).toContain('Math.random()');
  });

  it("is a Codex patch's added lines, without the +", () => {
    const patch = [
      '*** Begin Patch',
      '*** Update File: src/app.py',
      '@@ def main():',
      '-    return 0',
      '+    print("debug")',
      '+    return 1',
      '*** End Patch',
    ].join('\n');
    const raw = normalizeCodexPayload({
      session_id: 's',
      turn_id: 't',
      cwd: '/repo',
      hook_event_name: 'PreToolUse',
      tool_name: 'apply_patch',
      tool_input: { command: patch },
    });
    const event = parseHookPayload(raw);
    expect(event?.tool).toBe('Edit');
    expect(event?.paths).toEqual(['/repo/src/app.py']);
    expect(event?.content).toBe('    print("debug")\n    return 1');
  });
});

describe('the written text from Gemini CLI and Cursor calls (their adapters rename the tools)', () => {
  it.each([
    [
      'gemini write_file',
      'gemini',
      'write_file',
      { file_path: 'w.py', content: 'print(1)' },
      'Write',
      'print(1)',
    ],
    [
      'gemini replace',
      'gemini',
      'replace',
      { file_path: 'r.py', old_string: 'a', new_string: 'print(2)' },
      'Edit',
      'print(2)',
    ],
    [
      'cursor Write',
      'cursor',
      'Write',
      { file_path: '/home/dev/work/proj/a.sql', content: '-- y' },
      'Write',
      '-- y',
    ],
    [
      'cursor StrReplace',
      'cursor',
      'StrReplace',
      { file_path: '/home/dev/work/proj/a.ts', old_string: 'a', new_string: 'b()' },
      'Edit',
      'b()',
    ],
  ] as const)('%s', (_name, host, tool, input, claudeTool, content) => {
    const recorded = host === 'gemini' ? payload('gemini', 'BeforeTool') : payload('cursor', 'preToolUse');
    const raw = { ...recorded, tool_name: tool, tool_input: input };
    const normalized = host === 'gemini' ? normalizeGeminiPayload(raw) : normalizeCursorPayload(raw);
    expect(parseHookPayload(normalized)).toMatchObject({ tool: claudeTool, content });
  });
});

describe('manifest keys of a content lesson', () => {
  const base = { commands: [], paths: [], tags: [], tools: [] };
  it.each([
    ['no tools: the writing tools', { contents: ['x'] }, ['tool:write', 'tool:edit', 'tool:notebookedit']],
    ['its tools', { contents: ['x'], tools: ['Write', 'MultiEdit'] }, ['tool:write', 'tool:edit']],
    ['paths: their literals, no tool keys', { contents: ['x'], paths: ['src/**'] }, []],
  ])('%s', (_name, fields, keys) => {
    const found = lessonKeys({ ...base, ...fields });
    expect(found.keys).toEqual(keys);
    expect(found.always).toBe(false);
    if ('paths' in fields) expect(found.literals.length).toBeGreaterThan(0);
  });
});

function call(fields: Partial<HookEvent>): HookEvent {
  return { event: 'PreToolUse', sessionId: 's', agentId: 'main', cwd: '/repo', ...fields };
}

describe('matching content patterns', () => {
  const printAnywhere = lesson({ summary: 'no print calls in committed code', contents: ['^\\s*print\\('] });
  const printInSrc = lesson({
    summary: 'no print calls in src',
    contents: ['print\\(', 'pdb\\.set_trace'],
    paths: ['src/**'],
  });
  const awsKey = lesson({ summary: 'never write an AWS key', type: 'guard', contents: ['AKIA[0-9A-Z]{16}'] });
  const writeOnly = lesson({ summary: 'todo markers for Write only', contents: ['TODO'], tools: ['Write'] });
  const pathOnly = lesson({ summary: 'src files are reviewed', paths: ['src/**'] });
  const manifest = manifestOf([printAnywhere, printInSrc, awsKey, writeOnly, pathOnly]);
  const readers = manifestReaders(manifest);
  const matched = (ev: HookEvent, repoPaths: string[]) =>
    Object.fromEntries(
      selectLessons({
        event: ev,
        head: manifest.head,
        ...readers,
        words: manifest.words,
        repoPaths,
        state: { seen: new Set<string>(), shownCount: 0, stateAvailable: true },
        settings: manifest.head.settings,
        exhaustive: true,
      }).matches.map((m) => [m.lesson.id, m.matchedBy]),
    );
  const ids = {
    printAnywhere: printAnywhere.id,
    printInSrc: printInSrc.id,
    awsKey: awsKey.id,
    writeOnly: writeOnly.id,
    pathOnly: pathOnly.id,
  };
  const cases: [string, HookEvent, string[], Record<string, string[]>][] = [
    [
      'content matches (multiline ^), no paths',
      call({ tool: 'Write', content: 'x = 1\n    print(x)\n', paths: ['/repo/lib/a.py'] }),
      ['lib/a.py'],
      { printAnywhere: ['content:^\\s*print\\('] },
    ],
    [
      'content and path both match: content reasons then the path',
      call({ tool: 'Edit', content: 'print(x); pdb.set_trace()', paths: ['/repo/src/a.py'] }),
      ['src/a.py'],
      {
        printAnywhere: ['content:^\\s*print\\('],
        printInSrc: ['content:print\\(', 'content:pdb\\.set_trace', 'path:src/**'],
        pathOnly: ['path:src/**'],
      },
    ],
    [
      'content matches but the path does not: AND',
      call({ tool: 'Edit', content: 'x = print(1)', paths: ['/repo/lib/a.py'] }),
      ['lib/a.py'],
      {},
    ],
    [
      'content does not match: only the lesson without contents',
      call({ tool: 'Write', content: 'logging.info(x)', paths: ['/repo/src/a.py'] }),
      ['src/a.py'],
      { pathOnly: ['path:src/**'] },
    ],
    [
      'a read of the path: content lessons stay quiet, the path lesson matches as before',
      call({ tool: 'Read', paths: ['/repo/src/a.py'] }),
      ['src/a.py'],
      { pathOnly: ['path:src/**'] },
    ],
    [
      'a guard on a key, any writing tool (MultiEdit is Edit)',
      call({ tool: 'MultiEdit', content: 'key = "AKIAABCDEFGHIJKLMNOP"', paths: ['/repo/cfg.ini'] }),
      ['cfg.ini'],
      { awsKey: ['content:AKIA[0-9A-Z]{16}'] },
    ],
    [
      'the tools scope ANDs: TODO in an Edit does not match a Write-only lesson',
      call({ tool: 'Edit', content: '// TODO', paths: ['/repo/a.ts'] }),
      ['a.ts'],
      {},
    ],
    [
      'the tools scope ANDs: TODO in a Write does',
      call({ tool: 'Write', content: '// TODO', paths: ['/repo/a.ts'] }),
      ['a.ts'],
      { writeOnly: ['content:TODO'] },
    ],
    [
      'a shell command never matches content',
      call({ tool: 'Bash', command: 'print( TODO', paths: [] }),
      [],
      {},
    ],
  ];
  it.each(cases)('%s', (_name, ev, repoPaths, want) => {
    const got = matched(ev, repoPaths);
    const expected = Object.fromEntries(
      Object.entries(want).map(([name, reasons]) => [ids[name as keyof typeof ids], reasons]),
    );
    expect(got).toEqual(expected);
  });

  it('a guard with contents denies the call (it ranks with the guards that can deny)', () => {
    const selection = selectLessons({
      event: call({ tool: 'Write', content: 'AKIAABCDEFGHIJKLMNOP', paths: ['/repo/x'] }),
      head: manifest.head,
      ...readers,
      words: manifest.words,
      repoPaths: ['x'],
      state: { seen: new Set<string>(), shownCount: 0, stateAvailable: true },
      settings: manifest.head.settings,
      exhaustive: false,
    });
    expect(selection.decision.plan.denied.map((d) => d.id)).toEqual([awsKey.id]);
  });

  it('huge content is capped: a match past the first 64 KB is not seen, one inside it is', () => {
    const pad = 'a'.repeat(CONTENT_LIMIT);
    const late = parseHookPayload({
      ...writePayload,
      tool_input: { file_path: '/home/dev/work/proj/x.py', content: `${pad}\nprint(1)` },
    });
    expect(late?.content).toHaveLength(CONTENT_LIMIT);
    expect(matched({ ...(late as HookEvent), paths: ['/repo/x.py'] }, ['x.py'])).toEqual({});
    const early = parseHookPayload({
      ...writePayload,
      tool_input: { file_path: '/home/dev/work/proj/x.py', content: `print(1)\n${pad}` },
    });
    expect(matched({ ...(early as HookEvent), paths: ['/repo/x.py'] }, ['x.py'])).toEqual({
      [printAnywhere.id]: ['content:^\\s*print\\('],
    });
  });

  it('property: a literal content pattern matches exactly when the capped text holds it', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.stringMatching(/^[a-z]{3,8}$/), (text, word) => {
        const only = lesson({ summary: 'literal word lesson', contents: [word] });
        const m = manifestOf([only]);
        const r = manifestReaders(m);
        const event = parseHookPayload({
          ...writePayload,
          tool_input: { file_path: 'f.txt', content: text },
        });
        if (event === undefined) return text === '';
        const found = selectLessons({
          event,
          head: m.head,
          ...r,
          words: m.words,
          repoPaths: ['f.txt'],
          state: { seen: new Set<string>(), shownCount: 0, stateAvailable: true },
          settings: m.head.settings,
          exhaustive: true,
        }).matches.length;
        return (found === 1) === text.includes(word);
      }),
      { numRuns: 200 },
    );
  });
});

describe('the lesson schema', () => {
  const base = {
    schemaVersion: 1,
    id: 'a000000001',
    slug: 'x',
    summary: 'x',
    createdAt: '2026-01-01T00:00:00Z',
    updatedAt: '2026-01-01T00:00:00Z',
  };
  it.each([
    ['a valid pattern', ['console\\.log\\('], true],
    ['an invalid regex', ['('], false],
    ['catastrophic backtracking, refused as commands are', ['(a+)+$'], false],
    ['an empty pattern', [''], false],
  ] as const)('%s', (_name, contents, ok) => {
    expect(LessonSchema.safeParse({ ...base, contents }).success).toBe(ok);
  });

  it('defaults to no contents: lessons without the field behave as before', () => {
    expect(LessonSchema.parse(base).contents).toEqual([]);
  });
});
