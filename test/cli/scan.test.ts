import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, watch, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';

const fixtures = fileURLToPath(new URL('../fixtures/transcripts/', import.meta.url));

type ScanJson = {
  files: number;
  bytes: number;
  skipped: number;
  episodes: number;
  new: number;
  merged: number;
  decided: number;
  dropped: number;
  capped: number;
  candidates: {
    id: string;
    tool: string | null;
    trigger: string;
    summary: string;
    confidence: number;
    priority: number;
    tier: number;
    evidence: { file: string; line: number }[];
  }[];
};
/** Resolves once `file` contains `text`, woken by changes to its folder (no timer). */
function waitForText(file: string, text: string): Promise<void> {
  return new Promise((resolve) => {
    const has = () => existsSync(file) && readFileSync(file, 'utf8').includes(text);
    const watcher = watch(dirname(file), () => {
      if (!has()) return;
      watcher.close();
      resolve();
    });
    if (has()) {
      watcher.close();
      resolve();
    }
  });
}

type ListJson = {
  candidates: { id: string; occurrences: number; userCorrected: boolean; needsReview: boolean }[];
};

describe('lore scan and candidates', () => {
  // lessons-learned's maxCandidatesPerScan: a first scan of a long history adds at most N.
  it('adds at most capture.maxCandidatesPerScan new candidates and reports the rest', () => {
    const sandbox = createSandbox();
    cpSync(join(fixtures, 'claude-code'), join(sandbox.home, '.claude', 'projects'), { recursive: true });
    expect(sandbox.run(['init']).code).toBe(0);
    writeFileSync(sandbox.inRepo('.lore', 'config.yaml'), 'capture:\n  maxCandidatesPerScan: 2\n');
    const run = sandbox.run(['scan', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const data = run.json<ScanJson & { capped: number }>();
    expect(data.candidates).toHaveLength(2);
    expect(data.capped).toBeGreaterThan(0);
    expect(sandbox.run(['candidates', 'list', '--json']).json<ListJson>().candidates).toHaveLength(2);
  });

  it('the episodes a capped scan left out come with the next scans, none counted twice', () => {
    const session = 'M-Thisness__M-Claude__Archives__3cfce0ff-0725-47be-a572-f8af8122b71e.jsonl';
    const listed = (sandbox: ReturnType<typeof createSandbox>) =>
      sandbox
        .run(['candidates', 'list', '--json'])
        .json<{ candidates: { summary: string; occurrences: number }[] }>()
        .candidates.map((c) => `${c.summary} x${c.occurrences}`)
        .sort();
    const whole = createSandbox();
    mkdirSync(whole.inRepo('t'), { recursive: true });
    cpSync(join(fixtures, 'claude-code', session), whole.inRepo('t', session));
    expect(whole.run(['scan', '--path', 't', '--json']).json<ScanJson>().capped).toBe(0);
    const expected = listed(whole);
    expect(expected.length).toBeGreaterThan(10);

    const sandbox = createSandbox();
    mkdirSync(sandbox.inRepo('t'), { recursive: true });
    cpSync(join(fixtures, 'claude-code', session), sandbox.inRepo('t', session));
    expect(sandbox.run(['init']).code).toBe(0);
    writeFileSync(sandbox.inRepo('.lore', 'config.yaml'), 'capture:\n  maxCandidatesPerScan: 4\n');
    const first = sandbox.run(['scan', '--path', 't']);
    expect(first.stdout).toContain('left for the next scan (capture.maxCandidatesPerScan)');
    // the backlog is written from the scan state: the transcript is not parsed again
    const drains: { bytes: number; new: number }[] = [];
    for (let round = 0; round < 20; round += 1) {
      const run = sandbox.run(['scan', '--path', 't', '--json']).json<ScanJson>();
      drains.push({ bytes: run.bytes, new: run.new });
      expect(run.new).toBeLessThanOrEqual(4);
      if (run.capped === 0) break;
    }
    expect(drains.every((drain) => drain.bytes === 0)).toBe(true);
    expect(drains[0]?.new).toBe(4);
    expect(listed(sandbox)).toEqual(expected);
    expect(sandbox.run(['scan', '--path', 't', '--json']).json<ScanJson>()).toMatchObject({
      new: 0,
      capped: 0,
    });
  });

  // --since filters one run: it must not consume the older events of the files it read.
  it('a scan after a --since scan still mines the older events, and counts none twice', () => {
    const session = 'M-Thisness__M-Claude__Archives__3cfce0ff-0725-47be-a572-f8af8122b71e.jsonl';
    const listed = (sandbox: ReturnType<typeof createSandbox>) =>
      sandbox
        .run(['candidates', 'list', '--json'])
        .json<{ candidates: { summary: string; occurrences: number }[] }>()
        .candidates.map((c) => `${c.summary} x${c.occurrences}`)
        .sort();
    const setUp = () => {
      const sandbox = createSandbox();
      mkdirSync(sandbox.inRepo('t'), { recursive: true });
      cpSync(join(fixtures, 'claude-code', session), sandbox.inRepo('t', session));
      expect(sandbox.run(['init']).code).toBe(0);
      writeFileSync(sandbox.inRepo('.lore', 'config.yaml'), 'capture:\n  maxCandidatesPerScan: 1000\n');
      return sandbox;
    };
    const whole = setUp();
    expect(whole.run(['scan', '--path', 't', '--json']).code).toBe(0);
    const expected = listed(whole);

    const sandbox = setUp();
    const late = sandbox
      .run(['scan', '--path', 't', '--since', '2026-01-17T02:42:00Z', '--json'])
      .json<ScanJson>();
    expect(late.new).toBeGreaterThan(0);
    expect(late.new).toBeLessThan(expected.length);
    const plain = sandbox.run(['scan', '--path', 't', '--json']).json<ScanJson>();
    expect(plain.new).toBe(expected.length - late.new);
    expect(listed(sandbox)).toEqual(expected);
  });

  it("scans the agents' default folders, stores candidates, reads nothing twice, approves and rejects", () => {
    const sandbox = createSandbox();
    cpSync(join(fixtures, 'claude-code'), join(sandbox.home, '.claude', 'projects'), { recursive: true });
    cpSync(join(fixtures, 'codex'), join(sandbox.home, '.codex'), { recursive: true });
    cpSync(join(fixtures, 'gemini'), join(sandbox.home, '.gemini', 'tmp', 'proj'), { recursive: true });
    // uncapped: the episodes a capped scan leaves out are read again by the next (tested above)
    expect(sandbox.run(['init']).code).toBe(0);
    writeFileSync(sandbox.inRepo('.lore', 'config.yaml'), 'capture:\n  maxCandidatesPerScan: 1000\n');
    const first = sandbox.run(['scan', '--json']);
    expect(first.code).toBe(0);
    const data = first.json<ScanJson>();
    expect(Object.keys(data)).toEqual([
      'files',
      'bytes',
      'skipped',
      'episodes',
      'new',
      'merged',
      'decided',
      'dropped',
      'candidates',
      'capped',
      'feedback',
      'callCache',
      'outcomes',
      'problems',
    ]);
    expect(data.new).toBe(data.candidates.length);
    expect(data.episodes).toBeGreaterThanOrEqual(data.new + data.merged + data.dropped + data.capped);
    expect(data.files).toBe(149);
    // The fixtures' broken lines (cut by a redaction pass), less the 58 Claude Code lines whose
    // only broken part is the `toolUseResult` copy, which is never decoded (slim-line.ts).
    expect(data.skipped).toBe(339);
    expect(data.candidates.length).toBeGreaterThan(10);
    expect(Object.keys(data.candidates[0] ?? {})).toEqual([
      'id',
      'tool',
      'trigger',
      'summary',
      'confidence',
      'priority',
      'tier',
      'evidence',
    ]);
    expect(
      data.candidates.every((c) => c.evidence.every((e) => e.file.startsWith(sandbox.home) && e.line >= 1)),
    ).toBe(true);
    expect(first.stderr).not.toContain('\r[');

    const again = sandbox.run(['scan', '--json']).json<ScanJson>();
    expect(again).toMatchObject({ files: 149, bytes: 0, episodes: 0, new: 0, dropped: 0, candidates: [] });

    const listed = sandbox.run(['candidates', 'list', '--json']).json<ListJson>().candidates;
    expect(listed[0]?.occurrences).toBeGreaterThan(1);
    const text = JSON.stringify(listed);
    expect(text).not.toMatch(/\/home\/(?!\[user\])[a-z]/i);

    const target = listed.find((c) => !c.needsReview);
    const approved = sandbox.run([
      'candidates',
      'approve',
      target?.id ?? '',
      '--tag',
      'topic:reviewed',
      '--json',
    ]);
    expect(approved.code).toBe(0);
    const lessonId = approved.json<{ id: string }>().id;
    const shown = sandbox
      .run(['show', lessonId, '--json'])
      .json<{ lesson: { tags: string[]; needsReview: boolean; occurrences: number } }>();
    expect(shown.lesson.tags).toContain('topic:reviewed');
    expect(shown.lesson.needsReview).toBe(false);

    const victim = listed[listed.length - 1]?.id ?? '';
    expect(sandbox.run(['candidates', 'reject', victim]).code).toBe(0);
    const remaining = sandbox
      .run(['candidates', 'list', '--json'])
      .json<ListJson>()
      .candidates.map((c) => c.id);
    expect(remaining).not.toContain(victim);
    expect(remaining).not.toContain(target?.id);
    expect(sandbox.run(['candidates', 'approve']).code).toBe(2);
    expect(sandbox.run(['review']).code).toBe(2);
  });

  it('--background starts at most once per interval', async () => {
    const sandbox = createSandbox();
    const log = join(sandbox.repo, '.lore', 'cache', 'capture', 'background.log');
    const first = sandbox.run(['scan', '--background', '--path', join(fixtures, 'gemini'), '--json']);
    expect(first.json<{ started: boolean }>().started).toBe(true);
    const second = sandbox.run(['scan', '--background', '--json']);
    expect(second.json<{ started: boolean; reason: string }>()).toMatchObject({
      started: false,
      reason: 'ran-recently',
    });
    // The detached scan prints its summary when it is done writing: wait for that before the
    // sandbox is removed under it.
    await waitForText(log, 'found ');
    expect(readFileSync(log, 'utf8')).toMatch(/scanned \d+ transcript file/);
    // the detached scan leaves the agent a core: one thread, at a low priority
    expect(readFileSync(log, 'utf8')).toMatch(
      process.platform === 'win32'
        ? /background scan: one thread/
        : /background scan: one thread, priority 10\n/,
    );
  });
});

type TranscriptCall = { result: string; error: boolean } & (
  { command: string; description: string } | { tool: string; input: Record<string, unknown> }
);

/** A Claude Code transcript of calls (Bash unless named) and their results, one JSON line each. */
function bashTranscript(calls: TranscriptCall[]) {
  const base = { sessionId: 's-advice', cwd: '/work/app' };
  return calls
    .flatMap((call, i) => [
      JSON.stringify({
        ...base,
        type: 'assistant',
        message: {
          role: 'assistant',
          content: [
            'tool' in call
              ? { type: 'tool_use', id: `t${i}`, name: call.tool, input: call.input }
              : {
                  type: 'tool_use',
                  id: `t${i}`,
                  name: 'Bash',
                  input: { command: call.command, description: call.description },
                },
          ],
        },
      }),
      JSON.stringify({
        ...base,
        type: 'user',
        message: {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: `t${i}`, is_error: call.error, content: call.result },
          ],
        },
      }),
    ])
    .map((line) => `${line}\n`)
    .join('');
}

describe('lore scan words candidates as advice', () => {
  it('stores the advice and drops a find whose fix changes nothing a lesson could name', () => {
    const sandbox = createSandbox();
    const dir = join(sandbox.base, 'transcripts');
    mkdirSync(dir);
    const gpg = 'error: gpg failed to sign the data\nfatal: failed to write commit object';
    writeFileSync(
      join(dir, 'advice.jsonl'),
      bashTranscript([
        {
          command: 'git commit -m "Add the parser"',
          description: 'commit',
          result: `Exit code 128\n${gpg}`,
          error: true,
        },
        {
          command: 'git commit --no-gpg-sign -m "Add the parser"',
          description: 'commit',
          result: '[main 1a2b3c4] Add the parser',
          error: false,
        },
        // Another old_string, and nothing a lesson could name: dropped.
        {
          tool: 'Edit',
          input: { file_path: '/work/app/a.ts', old_string: 'x = 1', new_string: 'x = 3' },
          result: '<tool_use_error>String to replace not found in file.</tool_use_error>',
          error: true,
        },
        {
          tool: 'Edit',
          input: { file_path: '/work/app/a.ts', old_string: 'x = 2', new_string: 'x = 3' },
          result: 'The file /work/app/a.ts has been updated.',
          error: false,
        },
      ]),
    );
    const text = sandbox.run(['scan', '--path', dir]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('1 new candidate(s)');
    expect(text.stdout).toContain('1 dropped (no advice');
    const listed = sandbox.run(['candidates', 'list', '--json']).json<{ candidates: { id: string }[] }>();
    const shown = sandbox
      .run(['candidates', 'show', listed.candidates[0]?.id ?? '', '--json'])
      .json<{ record: { summary: string; mistake: string; remediation: string } }>().record;
    expect(shown).toMatchObject({
      summary: 'Add `--no-gpg-sign` to `git commit`: it failed with "error: gpg failed to sign the data"',
      mistake: '`git commit -m "Add the parser"` failed: error: gpg failed to sign the data',
      remediation: 'Run `git commit --no-gpg-sign -m "Add the parser"`',
    });
  });
});

describe('a Gemini CLI habit', () => {
  it('a cd on its own in a real Gemini session becomes a candidate and a lesson for Gemini CLI and Codex only', () => {
    const sandbox = createSandbox();
    const dir = join(sandbox.base, 'gemini');
    mkdirSync(dir);
    const name = 'session-2025-12-24T06-27-36e8d28f.json';
    cpSync(join(fixtures, 'gemini', 'chats', name), join(dir, name));
    expect(sandbox.run(['scan', '--source', 'gemini', '--path', dir]).code).toBe(0);
    const listed = sandbox.run(['candidates', 'list', '--json']).json<{ candidates: { id: string }[] }>();
    expect(listed.candidates).toHaveLength(1);
    const id = listed.candidates[0]?.id ?? '';
    expect(sandbox.run(['candidates', 'show', id]).stdout).toContain('only in: gemini, codex (its agents)');
    const approved = sandbox.run(['candidates', 'approve', id, '--json']).json<{ lesson: { id: string } }>();
    const { lesson } = sandbox
      .run(['show', approved.lesson.id, '--json'])
      .json<{ lesson: { agents: string[]; errors: string[]; summary: string } }>();
    expect(lesson).toMatchObject({ agents: ['gemini', 'codex'], errors: [] });
    expect(lesson.summary).toMatch(/^Don't run `cd Gemini-Playground` on its own/);
  });
});

describe('candidates stay out of git', () => {
  it('lore init ignores candidates/; an older .gitignore gets it from the first scan, once', () => {
    const sandbox = createSandbox();
    const gitignore = join(sandbox.repo, '.lore', '.gitignore');
    expect(readFileSync(gitignore, 'utf8').split('\n')).toEqual(
      expect.arrayContaining(['cache/', 'candidates/']),
    );

    writeFileSync(gitignore, '# mine\ncache/\n*.bak');
    expect(sandbox.run(['scan', '--path', join(fixtures, 'gemini')]).code).toBe(0);
    const updated = readFileSync(gitignore, 'utf8');
    expect(updated.startsWith('# mine\ncache/\n*.bak\n')).toBe(true);
    expect(updated.split('\n').filter((line) => line === 'candidates/')).toHaveLength(1);

    const init = sandbox.run(['init', '--json']).json<{ created: string[]; updated: string[] }>();
    expect([...init.created, ...init.updated]).toEqual([]);
    expect(readFileSync(gitignore, 'utf8')).toBe(updated);
  });

  it('names the first malformed lines and counts every one, however many files hold them', () => {
    const sandbox = createSandbox();
    const projects = join(sandbox.home, '.claude', 'projects', 'bad');
    mkdirSync(projects, { recursive: true });
    // 30 files of 3 lines that are not JSON, and one of 25 (more than a file's scan names): 115
    for (let f = 0; f < 30; f += 1) writeFileSync(join(projects, `s${f}.jsonl`), 'not json\n{"type":\n[1,\n');
    writeFileSync(join(projects, 'long.jsonl'), 'not json\n'.repeat(25));
    const run = sandbox.run(['scan', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json<ScanJson>().skipped).toBe(115);
    const named = run.stderr.split('\n').filter((line) => /^lore scan: \S+\.jsonl:\d+: /.test(line));
    expect(named).toHaveLength(5);
    expect(run.stderr).toContain('lore scan: ... and 110 more malformed line(s)');
  });

  it('the same transcripts read again through a symlinked folder are no repeat: nothing counted twice', () => {
    const sandbox = createSandbox();
    const session = 'M-Thisness__M-Claude__Archives__3cfce0ff-0725-47be-a572-f8af8122b71e.jsonl';
    mkdirSync(sandbox.inRepo('t'), { recursive: true });
    cpSync(join(fixtures, 'claude-code', session), sandbox.inRepo('t', session));
    symlinkSync(sandbox.inRepo('t'), sandbox.inRepo('linked'));
    const occurrences = () =>
      sandbox
        .run(['candidates', 'list', '--json'])
        .json<{ candidates: { id: string; occurrences: number }[] }>()
        .candidates.map((c) => `${c.id}:${c.occurrences}`)
        .sort();
    const first = sandbox.run(['scan', '--path', 't', '--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.json<ScanJson>().new).toBeGreaterThan(0);
    const before = occurrences();
    const again = sandbox.run(['scan', '--path', 'linked', '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json<ScanJson>()).toMatchObject({ new: 0, merged: 0 });
    expect(occurrences()).toEqual(before);
  });
});
