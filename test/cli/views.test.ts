// `lore render` (LEARNINGS.md and managed sections in agent instruction files) and
// `lore aggregate` (one skill per tool with many lessons), on demand and after every write.
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';

const write = (path: string, text: string) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};
const read = (path: string) => readFileSync(path, 'utf8');

function config(sandbox: Sandbox, yaml: string): void {
  write(sandbox.inRepo('.lore', 'config.yaml'), yaml);
}

type RenderJson = {
  files: { kind: string; path: string; status: string }[];
  lessons: number;
  check: boolean;
  upToDate: boolean;
};
type AggregateJson = {
  dir: string;
  threshold: number;
  dryRun: boolean;
  skills: { name: string; tool: string | null; path: string; lessons: string[]; action: string }[];
  problems: { file: string; severity: string }[];
};

describe('lore render', () => {
  it('writes LEARNINGS.md; --check says whether it is current and writes nothing', () => {
    const sandbox = createSandbox();
    const first = sandbox.add([
      '--summary',
      'Use pnpm, not npm',
      '--category',
      'tooling',
      '--severity',
      'high',
    ]);
    const run = sandbox.run(['render', '--json']);
    expect(run.code).toBe(0);
    expect(run.json<RenderJson>()).toEqual({
      files: [{ kind: 'learnings', path: 'LEARNINGS.md', status: 'created' }],
      lessons: 1,
      check: false,
      upToDate: false,
    });
    const page = read(sandbox.inRepo('LEARNINGS.md'));
    expect(page).toContain('## Tooling (1)\n\n');
    expect(page).toContain(`- \`${first}\` Use pnpm, not npm \`project\` \`high\`\n`);
    expect(sandbox.run(['render', '--check']).code).toBe(0);

    const second = sandbox.add(['--summary', 'Quote globs in find', '--category', 'tooling']);
    const check = sandbox.run(['render', '--check']);
    expect(check.code).toBe(1);
    expect(check.stdout).toContain('out of date: LEARNINGS.md');
    expect(read(sandbox.inRepo('LEARNINGS.md'))).toBe(page);

    expect(sandbox.run(['render']).stdout).toContain('updated: LEARNINGS.md');
    const updated = read(sandbox.inRepo('LEARNINGS.md'));
    expect(updated.indexOf(second)).toBeLessThan(updated.indexOf(first));
    expect(sandbox.run(['render']).stdout).toContain('up to date: LEARNINGS.md');
  });

  it('--out writes elsewhere, relative to the working directory', () => {
    const sandbox = createSandbox();
    sandbox.add(['--summary', 'a lesson']);
    write(sandbox.inRepo('docs', '.keep'), '');
    const run = sandbox.run(['render', '--out', 'L.md'], { cwd: sandbox.inRepo('docs') });
    expect(run.code).toBe(0);
    expect(read(sandbox.inRepo('docs', 'L.md'))).toContain('a lesson');
    expect(existsSync(sandbox.inRepo('LEARNINGS.md'))).toBe(false);
    const dir = sandbox.run(['render', '--out', 'docs']);
    expect(dir.code).toBe(1);
    expect(dir.stderr).toContain(`cannot read ${sandbox.inRepo('docs')}: EISDIR`);
  });

  it('views.render and views.agentFiles: every write renders the view and the managed sections', () => {
    const sandbox = createSandbox();
    config(sandbox, 'views:\n  render: true\n  agentFiles: [CLAUDE.md, GEMINI.md]\n  tiers: [project]\n');
    const mine = '# House rules\r\n\r\nNo tabs.\n\n<!-- a comment of mine -->';
    write(sandbox.inRepo('CLAUDE.md'), mine);
    const id = sandbox.add(['--summary', 'Run migrations before tests', '--severity', 'critical']);
    sandbox.add(['--summary', 'my own habit', '--tier', 'user']);

    const claude = read(sandbox.inRepo('CLAUDE.md'));
    expect(claude.startsWith(`${mine}\n\n<!-- lore:begin -->\n`)).toBe(true);
    expect(claude.endsWith('<!-- lore:end -->\n')).toBe(true);
    expect(claude).toContain(`- \`${id}\` Run migrations before tests \`project\` \`critical\``);
    expect(claude).not.toContain('my own habit');
    expect(read(sandbox.inRepo('GEMINI.md')).startsWith('<!-- lore:begin -->\n')).toBe(true);
    expect(read(sandbox.inRepo('LEARNINGS.md'))).toContain(id);

    // the person edits around the section; lore changes only the inside
    write(sandbox.inRepo('CLAUDE.md'), `Intro\n${claude}Outro\n`);
    sandbox.run(['archive', id]);
    const after = read(sandbox.inRepo('CLAUDE.md'));
    expect(after.startsWith(`Intro\n${mine}\n\n<!-- lore:begin -->\n`)).toBe(true);
    expect(after.endsWith('<!-- lore:end -->\nOutro\n')).toBe(true);
    expect(after).not.toContain(id);
    expect(after).toContain('No active lessons yet.');
  });

  it('a lesson scoped to agents goes only into the sections of the files those agents read', () => {
    const sandbox = createSandbox();
    config(sandbox, 'views:\n  render: true\n  agentFiles: [AGENTS.md, CLAUDE.md, GEMINI.md]\n');
    const everyone = sandbox.add(['--summary', 'Run migrations before tests']);
    const fresh = sandbox.add(['--summary', 'Do not run cd on its own', '--agent', 'gemini,codex']);
    const sections = Object.fromEntries(
      ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'].map((name) => [name, read(sandbox.inRepo(name))]),
    );
    expect(Object.values(sections).map((text) => [text.includes(everyone), text.includes(fresh)])).toEqual([
      [true, true],
      [true, false],
      [true, true],
    ]);
  });

  it('writes a managed section through a symlinked agent file, keeping the link and the mode', () => {
    const sandbox = createSandbox();
    config(sandbox, 'views:\n  agentFiles: [AGENTS.md, CLAUDE.md]\n');
    sandbox.add(['--summary', 'Run pytest with CI=1']);
    write(sandbox.inRepo('CLAUDE.md'), '# Team rules\nnever push to main\n');
    chmodSync(sandbox.inRepo('CLAUDE.md'), 0o600);
    symlinkSync('CLAUDE.md', sandbox.inRepo('AGENTS.md'));
    const run = sandbox.run(['render']);
    expect(run.code, run.stderr).toBe(0);
    expect(lstatSync(sandbox.inRepo('AGENTS.md')).isSymbolicLink()).toBe(true);
    expect(statSync(sandbox.inRepo('CLAUDE.md')).mode & 0o777).toBe(0o600);
    const text = read(sandbox.inRepo('CLAUDE.md'));
    expect(text).toMatch(/^# Team rules\nnever push to main\n\n<!-- lore:begin -->/);
    expect(text).toContain('Run pytest with CI=1');
    expect(text.match(/<!-- lore:begin -->/g)).toHaveLength(1);
    expect(sandbox.run(['render', '--check']).code).toBe(0);
  });

  it('a lesson that spells the markers, and markers in a code example, leave render working and the file intact', () => {
    const sandbox = createSandbox();
    config(sandbox, 'views:\n  agentFiles: [CLAUDE.md]\n');
    sandbox.add([
      '--summary',
      'Edit CLAUDE.md outside the <!-- lore:end --> marker, never inside the section',
    ]);
    const mine =
      '# Rules\n\nThe lore section looks like this:\n\n```markdown\n<!-- lore:begin -->\n(my example text)\n<!-- lore:end -->\n```\n\nMore rules.\n';
    write(sandbox.inRepo('CLAUDE.md'), mine);
    const run = sandbox.run(['render']);
    expect(run.code, run.stderr).toBe(0);
    const text = read(sandbox.inRepo('CLAUDE.md'));
    expect(text.startsWith(`${mine}\n<!-- lore:begin -->\n`)).toBe(true);
    expect(text).toContain('outside the &lt;!-- lore:end --\\> marker');
    expect(existsSync(sandbox.inRepo('LEARNINGS.md'))).toBe(true);
    expect(sandbox.run(['render']).code).toBe(0);
    expect(read(sandbox.inRepo('CLAUDE.md'))).toBe(text);
    expect(sandbox.run(['render', '--check']).code).toBe(0);
  });

  it('refuses a file with broken markers and writes nothing; a write still succeeds and says why', () => {
    const sandbox = createSandbox();
    config(sandbox, 'views:\n  agentFiles: [AGENTS.md]\n');
    const broken = '# Agents\n<!-- lore:begin -->\nhalf a section\n';
    write(sandbox.inRepo('AGENTS.md'), broken);
    sandbox.add(['--summary', 'a lesson']);
    const run = sandbox.run(['render']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('AGENTS.md:2: <!-- lore:begin --> without a <!-- lore:end --> after it');
    expect(run.stderr).toContain('nothing was written');
    expect(read(sandbox.inRepo('AGENTS.md'))).toBe(broken);
    expect(existsSync(sandbox.inRepo('LEARNINGS.md'))).toBe(false);

    config(sandbox, 'views:\n  render: true\n  agentFiles: [AGENTS.md]\n');
    const add = sandbox.run(['add', '--summary', 'another lesson']);
    expect(add.code).toBe(0);
    expect(add.stderr).toContain('the lesson was saved, but the views were not updated: AGENTS.md:2:');
    expect(read(sandbox.inRepo('AGENTS.md'))).toBe(broken);
  });
});

describe('concurrent writes with views.render', () => {
  it('the view and the skill hold every lesson once the writers are done', async () => {
    const sandbox = createSandbox();
    config(
      sandbox,
      'views:\n  render: true\n  agentFiles: [AGENTS.md]\naggregate:\n  enabled: true\n  threshold: 2\n',
    );
    const runs = await Promise.all(
      Array.from({ length: 4 }, (_, n) =>
        sandbox.runAsync(['add', '--summary', `concurrent lesson ${n}`, '--tag', 'tool:make', '--json']),
      ),
    );
    expect(runs.map((run) => [run.code, run.stderr])).toEqual(runs.map(() => [0, '']));
    const ids = runs.map((run) => run.json<{ id: string }>().id);
    const page = read(sandbox.inRepo('LEARNINGS.md'));
    const section = read(sandbox.inRepo('AGENTS.md'));
    const skill = read(sandbox.inRepo('.claude', 'skills', 'lore-make', 'SKILL.md'));
    for (const id of ids) {
      expect(page).toContain(id);
      expect(section).toContain(id);
      expect(skill).toContain(id);
    }
    expect(existsSync(sandbox.inRepo('.lore', 'cache', 'locks', 'views.lock'))).toBe(false);
  });
});

describe('lore aggregate', () => {
  const pytest = (sandbox: Sandbox, n: number, extra: string[] = []) =>
    sandbox.add([
      '--summary',
      `pytest lesson ${n}`,
      '--tag',
      'tool:pytest',
      '--command',
      `\\bpytest\\b.*-k${n}`,
      ...extra,
    ]);

  it('writes a skill once a tool has threshold lessons, leaves foreign files alone, removes it when below', () => {
    const sandbox = createSandbox();
    const ids = [1, 2, 3, 4].map((n) => pytest(sandbox, n));
    sandbox.add(['--summary', 'user pytest lesson', '--tag', 'tool:pytest', '--tier', 'user']);
    const none = sandbox.run(['aggregate', '--json']).json<AggregateJson>();
    expect(none).toEqual({ dir: '.claude/skills', threshold: 5, dryRun: false, skills: [], problems: [] });

    ids.push(pytest(sandbox, 5, ['--remediation', 'pass -p no:randomly']));
    const skill = sandbox.inRepo('.claude', 'skills', 'lore-pytest', 'SKILL.md');
    const dry = sandbox.run(['aggregate', '--dry-run']);
    expect(dry.stdout).toContain('would write: .claude/skills/lore-pytest/SKILL.md (pytest: 5 lessons)');
    expect(existsSync(skill)).toBe(false);

    const foreign = '---\nname: lore-uv\ndescription: mine\n---\nhand-written\n';
    write(sandbox.inRepo('.claude', 'skills', 'lore-uv', 'SKILL.md'), foreign);
    for (const n of [1, 2, 3, 4, 5]) sandbox.add(['--summary', `uv lesson ${n}`, '--tag', 'tool:uv']);
    const run = sandbox.run(['aggregate', '--json']).json<AggregateJson>();
    expect(run.skills.map((s) => [s.name, s.action, s.lessons.length])).toEqual([
      ['lore-pytest', 'write', 5],
      ['lore-uv', 'not-ours', 5],
    ]);
    const text = read(skill);
    expect(text).toMatch(/^---\nname: lore-pytest\ndescription: "Lessons this project learned/);
    expect(text).toContain('\\\\bpytest\\\\b.*-k5');
    expect(text).toContain('Fix: pass -p no:randomly');
    for (const id of ids) expect(text).toContain(`\`${id}\``);
    expect(text).not.toContain('user pytest lesson');
    expect(read(sandbox.inRepo('.claude', 'skills', 'lore-uv', 'SKILL.md'))).toBe(foreign);
    expect(sandbox.run(['aggregate']).stdout).toContain('up to date: .claude/skills/lore-pytest/SKILL.md');

    sandbox.run(['archive', ids[0] ?? '']);
    expect(sandbox.run(['aggregate']).stdout).toContain(
      'removed: .claude/skills/lore-pytest/SKILL.md (its tool has fewer lessons now)',
    );
    expect(existsSync(sandbox.inRepo('.claude', 'skills', 'lore-pytest'))).toBe(false);
    expect(read(sandbox.inRepo('.claude', 'skills', 'lore-uv', 'SKILL.md'))).toBe(foreign);
  });

  it('aggregate.enabled and aggregate.dir: every write keeps the skills current', () => {
    const sandbox = createSandbox();
    config(sandbox, 'aggregate:\n  enabled: true\n  threshold: 2\n  dir: agent/skills\n');
    pytest(sandbox, 1);
    const skill = sandbox.inRepo('agent', 'skills', 'lore-pytest', 'SKILL.md');
    expect(existsSync(skill)).toBe(false);
    const second = pytest(sandbox, 2);
    expect(read(skill)).toContain(`\`${second}\``);
    sandbox.run(['archive', second]);
    expect(existsSync(skill)).toBe(false);
  });
});
