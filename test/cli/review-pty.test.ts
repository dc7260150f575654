// `lore review` on a real pseudo-terminal: util-linux `script` runs the built lore on a pty, so
// its stdin and stderr are TTYs as in a person's terminal. The test types each answer only after
// the prompt has appeared on the terminal (it waits on output, never on a timer), then checks the
// stores: one candidate became a lesson, one was rejected, the rest are still waiting.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSandbox, LORE_BIN } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';
import { writeCandidate } from '../helpers/distill-candidate.js';

const fixtures = fileURLToPath(new URL('../fixtures/transcripts/', import.meta.url));
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).stdout?.includes('util-linux');

const PROMPT = '[a]pprove  [e]dit summary  [r]eject  [s]kip  [q]uit > ';

type ListJson = { candidates: { id: string }[] };

/** Everything the terminal showed so far, and a way to wait until it shows something. */
function watchTerminal(child: ChildProcess) {
  let screen = '';
  const waiting: { test: (screen: string) => boolean; resolve: () => void }[] = [];
  let exited: (code: number | null) => void = () => undefined;
  const exit = new Promise<number | null>((resolve) => (exited = resolve));
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    screen += chunk;
    for (const waiter of waiting.splice(0)) {
      if (waiter.test(screen)) waiter.resolve();
      else waiting.push(waiter);
    }
  });
  child.on('close', (code) => exited(code));
  return {
    screen: () => screen,
    exit,
    /** Resolves once `text` has appeared `times` times in all; fails if the program ends first. */
    until(text: string, times = 1): Promise<void> {
      const test = (s: string) => s.split(text).length - 1 >= times;
      const shown = new Promise<void>((resolve) =>
        test(screen) ? resolve() : waiting.push({ test, resolve }),
      );
      const ended = exit.then((code) => {
        throw new Error(`lore review ended (${code}) before showing ${JSON.stringify(text)}:\n${screen}`);
      });
      return Promise.race([shown, ended]);
    },
  };
}

const shellQuote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

function startReview(sandbox: Sandbox) {
  const command = [process.execPath, LORE_BIN, 'review'].map(shellQuote).join(' ');
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: sandbox.repo,
    env: { ...sandbox.env, TERM: 'dumb' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return { child, terminal: watchTerminal(child) };
}

/** A transcript of 100 Bash calls that all worked: every fifth a `git push origin main`. */
function pushHistory(): string {
  const base = { sessionId: 's-push', cwd: '/work/app' };
  return Array.from({ length: 100 }, (_, i) => {
    const command = i % 5 === 0 ? 'git push origin main' : 'ls -la';
    const use = { type: 'tool_use', id: `t${i}`, name: 'Bash', input: { command } };
    const result = { type: 'tool_result', tool_use_id: `t${i}`, is_error: false, content: 'ok' };
    return [
      { ...base, type: 'assistant', message: { role: 'assistant', content: [use] } },
      { ...base, type: 'user', message: { role: 'user', content: [result] } },
    ];
  })
    .flat()
    .map((line) => `${JSON.stringify(line)}\n`)
    .join('');
}

describe.skipIf(!hasScript)('lore review on a pseudo-terminal', () => {
  it('approves one candidate, rejects one, quits; the stores reflect it', async () => {
    const sandbox = createSandbox();
    expect(sandbox.run(['scan', '--path', join(fixtures, 'claude-code')]).code).toBe(0);
    const before = sandbox.run(['candidates', 'list', '--json']).json<ListJson>().candidates;
    expect(before.length).toBeGreaterThanOrEqual(3);
    const [first, second] = before;

    const command = [process.execPath, LORE_BIN, 'review'].map(shellQuote).join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: sandbox.repo,
      env: { ...sandbox.env, TERM: 'dumb' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const terminal = watchTerminal(child);

    await terminal.until(PROMPT, 1);
    expect(terminal.screen()).toContain(`[1/${before.length}] ${first?.id}`);
    child.stdin?.write('a\n');
    await terminal.until('approved as lesson ');
    await terminal.until(PROMPT, 2);
    expect(terminal.screen()).toContain(`[2/${before.length}] ${second?.id}`);
    child.stdin?.write('r\n');
    await terminal.until('rejected\r\n');
    await terminal.until(PROMPT, 3);
    child.stdin?.write('q\n');
    await terminal.until('reviewed: 1 approved, 1 rejected, 0 skipped');
    expect(await terminal.exit).toBe(0);
    child.stdin?.end();

    const lessonId = /approved as lesson (\w+)/.exec(terminal.screen())?.[1] ?? '';
    const lesson = sandbox.run(['show', lessonId, '--json']).json<{ lesson: { needsReview: boolean } }>();
    expect(lesson.lesson.needsReview).toBe(false);
    const after = sandbox
      .run(['candidates', 'list', '--json'])
      .json<ListJson>()
      .candidates.map((c) => c.id);
    expect(after).toEqual(before.slice(2).map((c) => c.id));
    expect(existsSync(join(sandbox.repo, '.lore', 'candidates', first?.id ?? '', 'lesson.yaml'))).toBe(false);
    const decisions = readFileSync(join(sandbox.repo, '.lore', 'candidates', 'decisions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { decision: string }).decision);
    expect(decisions).toEqual(['approved', 'rejected']);
  }, 60_000);

  it('asks once more before approving a too-broad trigger', async () => {
    const sandbox = createSandbox();
    const dir = join(sandbox.base, 'transcripts');
    mkdirSync(dir);
    writeFileSync(join(dir, 'push.jsonl'), pushHistory());
    expect(sandbox.run(['scan', '--path', dir]).code).toBe(0);
    writeCandidate(sandbox.repo, '0000000001', 'git push origin main');

    const no = startReview(sandbox);
    await no.terminal.until(PROMPT);
    no.child.stdin?.write('a\n');
    await no.terminal.until('approve it anyway? [y/N] > ');
    expect(no.terminal.screen()).toContain(
      'broad trigger: it would have fired on 20 of your last 100 calls, 0 of them at this mistake',
    );
    no.child.stdin?.write('n\n');
    await no.terminal.until('reviewed: 0 approved, 0 rejected, 1 skipped');
    expect(await no.terminal.exit).toBe(0);
    no.child.stdin?.end();

    const yes = startReview(sandbox);
    await yes.terminal.until(PROMPT);
    yes.child.stdin?.write('a\n');
    await yes.terminal.until('approve it anyway? [y/N] > ');
    yes.child.stdin?.write('y\n');
    await yes.terminal.until('reviewed: 1 approved, 0 rejected, 0 skipped');
    expect(yes.terminal.screen()).toContain('broad, saved as you confirmed');
    yes.child.stdin?.end();
    expect(sandbox.run(['candidates', 'list', '--json']).json<ListJson>().candidates).toEqual([]);
  }, 60_000);

  it('shows a lesson held by its outcomes with the lines of its repeats; keeping it puts it back to work', async () => {
    const sandbox = createSandbox();
    const id = sandbox.add([
      '--summary',
      'pytest is not on PATH here: run python -m pytest',
      '--command',
      '^pytest',
    ]);
    expect(sandbox.run(['update', id, '--needs-review']).code).toBe(0);
    const cache = join(sandbox.repo, '.lore', 'cache');
    mkdirSync(cache, { recursive: true });
    const at = '2026-11-20T10:00:00.000Z';
    writeFileSync(
      join(cache, 'outcomes.jsonl'),
      `${JSON.stringify({ injection: `s1/${at}/${id}`, lesson: id, session: 's1', injectedAt: at, judgedAt: at, form: 'after-call', verdict: 'repeated', linkedBy: 'call-id', evidence: { file: '/t/s1.jsonl', line: 9 } })}\n`,
    );
    writeFileSync(
      join(cache, 'outcome-holds.jsonl'),
      `${JSON.stringify({ lesson: id, action: 'held', at, helpful: 0, notHelpful: 3 })}\n`,
    );

    const command = [process.execPath, LORE_BIN, 'review'].map(shellQuote).join(' ');
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: sandbox.repo,
      env: { ...sandbox.env, TERM: 'dumb' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const terminal = watchTerminal(child);
    await terminal.until('[k]eep  [a]rchive  [s]kip  [q]uit > ');
    expect(terminal.screen()).toContain('lessons held by their outcomes');
    expect(terminal.screen()).toContain('its mistake again (after-call): /t/s1.jsonl:9');
    child.stdin?.write('k\n');
    await terminal.until('kept: injected again');
    await terminal.until('no candidates to review');
    expect(await terminal.exit).toBe(0);
    child.stdin?.end();
    expect(
      sandbox.run(['show', id, '--json']).json<{ lesson: { needsReview: boolean } }>().lesson.needsReview,
    ).toBe(false);
  }, 60_000);
});
