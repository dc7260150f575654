// `lore protocol` on real transcripts: the recorded Claude Code session whose agent wrote one
// #lesson block, and the same session with the block left unclosed.
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';

const SESSION = fileURLToPath(
  new URL(
    '../fixtures/transcripts/claude-code/lesson-blocks-2.1.330/cdf0eb85-dd47-4f9f-9ec4-46a641170adc.jsonl',
    import.meta.url,
  ),
);

const GEMINI = fileURLToPath(
  new URL('../fixtures/transcripts/gemini/chats/session-yoavf-pomodoro.json', import.meta.url),
);

type Report = {
  sessions: number;
  following: number;
  blocks: number;
  malformed: number;
  blocksPerSession: number;
};

describe('lore protocol', () => {
  it('counts the blocks agents wrote per session, and the malformed ones', () => {
    const sandbox = createSandbox();
    cpSync(SESSION, sandbox.inRepo('good', 'session.jsonl'));
    const good = sandbox.run(['protocol', '--path', 'good', '--json']);
    expect(good.code, good.stderr).toBe(0);
    expect(good.json<Report>()).toMatchObject({
      sessions: 1,
      following: 1,
      blocks: 1,
      malformed: 0,
      blocksPerSession: 1,
    });

    writeFileSync(
      sandbox.inRepo('bad.jsonl'),
      readFileSync(SESSION, 'utf8').replaceAll('#/lesson', '#/lessen'),
    );
    const bad = sandbox.run(['protocol', '--path', 'bad.jsonl', '--json']).json<Report>();
    expect(bad).toMatchObject({ sessions: 1, following: 0, blocks: 0, malformed: 1 });
    expect(sandbox.run(['protocol', '--path', 'bad.jsonl']).stdout).toContain(
      '0 block(s), 0 per session; 1 malformed (100%',
    );
  });
});

describe('lore protocol on odd input', () => {
  it('a Gemini session cut short is named on stderr and left out; the other files are still counted (exit 0)', () => {
    const sandbox = createSandbox();
    cpSync(SESSION, sandbox.inRepo('t', 'session.jsonl'));
    const gemini = readFileSync(GEMINI, 'utf8');
    mkdirSync(sandbox.inRepo('t', 'chats'), { recursive: true });
    writeFileSync(sandbox.inRepo('t', 'chats', 'session-cut.json'), gemini.slice(0, 3000), { flag: 'w' });
    const run = sandbox.run(['protocol', '--path', 't', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json<Report & { unreadable: number }>()).toMatchObject({
      sessions: 1,
      blocks: 1,
      unreadable: 1,
    });
    expect(run.stderr).toContain('session-cut.json: could not be read');
  });

  it('a --path that does not exist is an error naming it (exit 1), not a report of 0 sessions', () => {
    const sandbox = createSandbox();
    for (const json of [[], ['--json']]) {
      const run = sandbox.run(['protocol', '--path', 'transcrpits', ...json]);
      expect(run.code, run.stdout).toBe(1);
      expect(run.stderr).toContain('--path transcrpits: no such file or folder');
    }
  });
});
