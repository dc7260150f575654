// A candidate file edited by hand into a wrong shape, or cut into invalid YAML, is reported with
// its file and what is wrong, and skipped: listing, showing and approving the others still work.
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSandbox, deadPid } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';

const fixture = fileURLToPath(
  new URL(
    '../fixtures/transcripts/claude-code/M-Thisness__M-Claude__CHAT_LOGS__c7d2069e-c561-4759-8adf-b0745be78c29.jsonl',
    import.meta.url,
  ),
);

type Listed = {
  candidates: { id: string; file: string }[];
  broken: { id: string; file: string; line?: number; problem: string }[];
};

function withCandidates(): { sandbox: Sandbox; listed: Listed } {
  const sandbox = createSandbox();
  const dir = join(sandbox.home, '.claude', 'projects', '-home-dev-work');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'c7d2069e-c561-4759-8adf-b0745be78c29.jsonl'), readFileSync(fixture));
  expect(sandbox.run(['scan']).code).toBe(0);
  const listed = sandbox.run(['candidates', 'list', '--json']).json<Listed>();
  expect(listed.candidates.length).toBeGreaterThan(1);
  expect(listed.broken).toEqual([]);
  return { sandbox, listed };
}

const fileOf = (sandbox: Sandbox, shown: string) =>
  shown.startsWith('~/') ? join(sandbox.home, shown.slice(2)) : sandbox.inRepo(shown);

describe('a broken candidate file', () => {
  it.each([
    [
      'a summary that is a number',
      (text: string) => text.replace(/^summary: .*$/m, 'summary: 42'),
      'summary must be a text',
    ],
    [
      'tags that are not a list',
      (text: string) => `${text.replace(/^tags:(\n {2}- .*)*\n/m, '')}tags: lang:python\n`,
      'tags must be a list of texts',
    ],
    [
      'a capture that is not a mapping',
      (text: string) => text.replace(/^capture:$/m, 'capture: 5\nformer:'),
      'capture must be a mapping',
    ],
    ['invalid YAML', () => 'summary: [unclosed\n', 'invalid YAML'],
  ])('%s: named with its file and skipped; the others list, show and approve', (_name, breakIt, problem) => {
    const { sandbox, listed } = withCandidates();
    const [bad, good] = listed.candidates as [Listed['candidates'][number], Listed['candidates'][number]];
    const file = fileOf(sandbox, bad.file);
    writeFileSync(file, breakIt(readFileSync(file, 'utf8')));

    const list = sandbox.run(['candidates', 'list', '--json']);
    expect(list.code).toBe(0);
    const after = list.json<Listed>();
    expect(after.candidates.map((c) => c.id)).not.toContain(bad.id);
    expect(after.candidates.map((c) => c.id)).toContain(good.id);
    expect(after.broken).toEqual([expect.objectContaining({ id: bad.id, file: bad.file })]);
    expect(after.broken[0]?.problem).toContain(problem);
    expect(after.broken[0]?.line).toBeGreaterThan(0);
    expect(list.stderr).toContain(
      `${bad.file}:${after.broken[0]?.line}: skipped: ${after.broken[0]?.problem}`,
    );

    const show = sandbox.run(['candidates', 'show', bad.id]);
    expect(show.code).toBe(1);
    expect(show.stderr).toContain(`candidate ${bad.id} cannot be used`);
    expect(show.stderr).toContain(bad.file);
    expect(sandbox.run(['candidates', 'approve', bad.id, '--force']).code).toBe(1);

    expect(sandbox.run(['candidates', 'show', good.id]).code).toBe(0);
    expect(sandbox.run(['candidates', 'approve', good.id, '--force']).code).toBe(0);
  });

  // A scan killed mid-write leaves lore's temporary file in the candidate's folder.
  it('the temporaries a killed write left are removed when the store next lists, and only those', () => {
    const { sandbox, listed } = withCandidates();
    const [first, second] = listed.candidates as [Listed['candidates'][number], Listed['candidates'][number]];
    const folder = dirname(fileOf(sandbox, first.file));
    const dead = deadPid();
    const old = (Date.now() - 5 * 60_000) / 1000;
    const plant = (path: string, aged: boolean) => {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, 'schemaVersion: 1\nid: half-writ');
      utimesSync(path, aged ? old : Date.now() / 1000, aged ? old : Date.now() / 1000);
      return path;
    };
    const abandoned = plant(join(folder, `.lesson.yaml.${dead}.0badf00d.tmp`), true);
    const kept = [
      plant(join(folder, `.lesson.yaml.${dead}.12345678.tmp`), false), // may be a writer elsewhere
      plant(join(folder, `.lesson.yaml.${process.pid}.deadbeef.tmp`), true), // a live writer
      plant(join(folder, '.review-notes.tmp'), true), // a person's own file
    ];
    // a create killed before its file was in place: a folder with only a temporary
    const halfMade = join(dirname(folder), 'zz-half-made');
    plant(join(halfMade, `.lesson.yaml.${dead}.abcdef01.tmp`), true);
    utimesSync(halfMade, old, old);

    const list = sandbox.run(['candidates', 'list', '--json']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.json<Listed>().candidates.map((c) => c.id)).toContain(second.id);
    expect(existsSync(abandoned)).toBe(false);
    expect(kept.filter((path) => existsSync(path))).toEqual(kept);
    expect(existsSync(halfMade)).toBe(false);
    expect(existsSync(fileOf(sandbox, first.file))).toBe(true);
  });

  it.each([
    ['a summary cut open', (text: string) => text.replace(/^summary: .*$/m, 'summary: "unclosed')],
    ['a wrong shape', (text: string) => text.replace(/^summary: .*$/m, 'summary: 42')],
    ['the whole file replaced', () => 'summary: [unclosed\n'],
  ])('%s: the next scan names it and writes no second candidate of its episodes', (_name, breakIt) => {
    const { sandbox, listed } = withCandidates();
    const bad = listed.candidates[0] as Listed['candidates'][number];
    const file = fileOf(sandbox, bad.file);
    const broken = breakIt(readFileSync(file, 'utf8'));
    writeFileSync(file, broken);
    // the same session under another name: every episode repeats
    const dir = join(sandbox.home, '.claude', 'projects', '-home-dev-work');
    writeFileSync(join(dir, 'second.jsonl'), readFileSync(fixture));

    const scan = sandbox.run(['scan', '--json']);
    expect(scan.code).toBe(0);
    expect(scan.json<{ new: number }>().new).toBe(0);
    expect(scan.stderr).toMatch(new RegExp(`${bad.file.replace(/[.]/g, '\\.')}:\\d+: .*held`));
    const after = sandbox.run(['candidates', 'list', '--json']).json<Listed>();
    expect(after.candidates.length).toBe(listed.candidates.length - 1);
    expect(after.broken.map((c) => c.id)).toEqual([bad.id]);
    expect(readFileSync(file, 'utf8')).toBe(broken);
  });
});
