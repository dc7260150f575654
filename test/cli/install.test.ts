// lore install / uninstall through the built binary, on temporary agent settings.
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
import type { ErrorJson } from '../helpers/cli.js';

const BUNDLE = fileURLToPath(new URL('../../plugin/bin/lore-hook.cjs', import.meta.url));
const PLUGIN_HOOKS = JSON.parse(
  readFileSync(new URL('../../plugin/hooks/hooks.json', import.meta.url), 'utf8'),
) as { hooks: Record<string, { matcher?: string; hooks: { command: string }[] }[]> };

type Settings = {
  hooks?: Record<string, { matcher?: string; hooks: { type: string; command: string }[] }[]>;
} & Record<string, unknown>;
type InstallJson = {
  agent: string;
  scope: string;
  file: string;
  changed: boolean;
  hooks: string[];
  bundle: string;
};

const USER_SETTINGS = {
  model: 'opus',
  env: { FOO: 'bar' },
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: '/usr/local/bin/audit-bash' }] }],
    Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
  },
};

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Settings;
const loreCommands = (settings: Settings) =>
  Object.values(settings.hooks ?? {})
    .flat()
    .flatMap((group) => group.hooks.map((handler) => handler.command))
    .filter((command) => command.includes('lore-hook.cjs'));

describe('lore install claude-code', () => {
  it('adds every hook of the plugin, pointing at the bundle of this package, and keeps the rest', () => {
    const sandbox = createSandbox({ init: false });
    const file = join(sandbox.home, '.claude', 'settings.json');
    mkdirSync(join(sandbox.home, '.claude'));
    writeFileSync(file, JSON.stringify(USER_SETTINGS, null, 2));

    const run = sandbox.run(['install', 'claude-code']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Installed lore's hooks for Claude Code in ${file}`);
    const settings = read(file);
    expect(settings.model).toBe('opus');
    expect(settings.env).toEqual({ FOO: 'bar' });
    expect(settings.hooks!.Stop![0]).toEqual(USER_SETTINGS.hooks.Stop[0]);
    expect(settings.hooks!.PreToolUse![0]).toEqual(USER_SETTINGS.hooks.PreToolUse[0]);
    for (const [event, groups] of Object.entries(PLUGIN_HOOKS.hooks)) {
      const installed = settings.hooks![event]!.filter(
        (group) => loreCommands({ hooks: { [event]: [group] } }).length > 0,
      );
      expect(installed.map((group) => group.matcher)).toEqual(groups.map((group) => group.matcher));
    }
    expect(new Set(loreCommands(settings))).toEqual(new Set([`NODE_EXTRA_CA_CERTS= node "${BUNDLE}"`]));
  });

  it('is idempotent: the second run reports no change and leaves the file byte for byte', () => {
    const sandbox = createSandbox({ init: false });
    const file = join(sandbox.home, '.claude', 'settings.json');
    expect(sandbox.run(['install', 'claude-code']).code).toBe(0);
    const first = readFileSync(file, 'utf8');
    const again = sandbox.run(['install', 'claude-code', '--json']);
    expect(again.code).toBe(0);
    expect(again.json<InstallJson>()).toMatchObject({
      agent: 'claude-code',
      scope: 'user',
      file,
      changed: false,
      bundle: BUNDLE,
    });
    expect(readFileSync(file, 'utf8')).toBe(first);
  });

  it('uninstall takes out only lore and gives back the user settings', () => {
    const sandbox = createSandbox({ init: false });
    const file = join(sandbox.home, '.claude', 'settings.json');
    mkdirSync(join(sandbox.home, '.claude'));
    writeFileSync(file, JSON.stringify(USER_SETTINGS));
    expect(sandbox.run(['install', 'claude-code']).code).toBe(0);

    const run = sandbox.run(['uninstall', 'claude-code', '--json']);
    expect(run.code).toBe(0);
    expect(run.json<{ changed: boolean; removed: string[] }>()).toMatchObject({ changed: true });
    expect(read(file)).toEqual(USER_SETTINGS);
    const again = sandbox.run(['uninstall', 'claude-code']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing changed');
  });

  it('uninstall gives back the bytes: an empty hooks the user had stays, one the install made goes, a file it made is removed', () => {
    const sandbox = createSandbox({ init: false });
    const file = join(sandbox.home, '.claude', 'settings.json');
    mkdirSync(join(sandbox.home, '.claude'));
    for (const original of ['{\n  "model": "x",\n  "hooks": {}\n}\n', '{\n  "model": "x"\n}\n']) {
      writeFileSync(file, original);
      expect(sandbox.run(['install', 'claude-code']).code).toBe(0);
      expect(readFileSync(file, 'utf8')).toContain('lore-hook.cjs');
      expect(sandbox.run(['uninstall', 'claude-code']).code).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(original);
    }
    rmSync(file);
    expect(sandbox.run(['install', 'claude-code']).code).toBe(0);
    const removed = sandbox.run(['uninstall', 'claude-code']);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain(`removed ${file}: the install created it and nothing else is in it`);
    expect(existsSync(file)).toBe(false);
  });

  it('honours CLAUDE_CONFIG_DIR, and --scope project edits the repository', () => {
    const sandbox = createSandbox();
    const configDir = join(sandbox.base, 'claude-config');
    expect(sandbox.run(['install', 'claude-code'], { env: { CLAUDE_CONFIG_DIR: configDir } }).code).toBe(0);
    expect(loreCommands(read(join(configDir, 'settings.json')))).not.toEqual([]);

    const project = sandbox.run(['install', 'claude-code', '--scope', 'project', '--json'], {
      cwd: sandbox.inRepo(),
    });
    expect(project.code).toBe(0);
    expect(project.json<InstallJson>().file).toBe(sandbox.inRepo('.claude', 'settings.json'));
    expect(loreCommands(read(sandbox.inRepo('.claude', 'settings.json')))).not.toEqual([]);
  });

  it('refuses a malformed settings file with its line and changes nothing', () => {
    const sandbox = createSandbox({ init: false });
    const file = join(sandbox.home, '.claude', 'settings.json');
    mkdirSync(join(sandbox.home, '.claude'));
    const broken = '{\n  "model": "opus",\n  "hooks": {\n    "PreToolUse": [,]\n  }\n}\n';
    writeFileSync(file, broken);
    for (const verb of ['install', 'uninstall']) {
      const run = sandbox.run([verb, 'claude-code']);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`${file}:4: not valid JSON`);
      expect(run.stderr).toContain('lore changed nothing');
      expect(readFileSync(file, 'utf8')).toBe(broken);
    }
    const json = sandbox.run(['install', 'claude-code', '--json']);
    expect(json.json<ErrorJson>().error).toMatchObject({ code: 'invalid', details: { file, line: 4 } });
  });

  it('refuses hooks of the wrong shape the same way', () => {
    const sandbox = createSandbox({ init: false });
    const file = join(sandbox.home, '.claude', 'settings.json');
    mkdirSync(join(sandbox.home, '.claude'));
    const wrong = '{\n  "hooks": {\n    "PreToolUse": "lore"\n  }\n}\n';
    writeFileSync(file, wrong);
    const run = sandbox.run(['install', 'claude-code']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${file}:3: "hooks.PreToolUse" must be a list`);
    expect(readFileSync(file, 'utf8')).toBe(wrong);
  });

  it('writes through a symlinked settings file and keeps the link', () => {
    const sandbox = createSandbox({ init: false });
    const target = join(sandbox.base, 'dotfiles-settings.json');
    writeFileSync(target, '{"model": "opus"}\n');
    mkdirSync(join(sandbox.home, '.claude'));
    const link = join(sandbox.home, '.claude', 'settings.json');
    symlinkSync(target, link);
    expect(sandbox.run(['install', 'claude-code']).code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(read(target).model).toBe('opus');
    expect(loreCommands(read(target))).not.toEqual([]);
  });

  it('reads a settings file that starts with a byte order mark and keeps the mark', () => {
    const sandbox = createSandbox({ init: false });
    const file = join(sandbox.home, '.claude', 'settings.json');
    mkdirSync(join(sandbox.home, '.claude'));
    writeFileSync(file, '\uFEFF{"model": "opus"}\n');
    const run = sandbox.run(['install', 'claude-code']);
    expect(run.code, run.stderr).toBe(0);
    const written = readFileSync(file, 'utf8');
    expect(written.startsWith('\uFEFF{')).toBe(true);
    expect((JSON.parse(written.slice(1)) as Settings).model).toBe('opus');
    expect(loreCommands(JSON.parse(written.slice(1)) as Settings)).not.toEqual([]);
    expect(sandbox.run(['uninstall', 'claude-code']).code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('\uFEFF{"model": "opus"}\n');
  });

  it('writes a dangling symlinked settings file into its target, creating it, and keeps the link; uninstall removes the target it made', () => {
    const sandbox = createSandbox({ init: false });
    const target = join(sandbox.base, 'dotfiles', 'claude', 'settings.json');
    mkdirSync(join(sandbox.home, '.claude'));
    const link = join(sandbox.home, '.claude', 'settings.json');
    symlinkSync(target, link);
    const run = sandbox.run(['install', 'claude-code']);
    expect(run.code, run.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(loreCommands(read(target))).not.toEqual([]);
    expect(sandbox.run(['uninstall', 'claude-code']).code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(existsSync(target)).toBe(false);
  });

  it('--dry-run says what it would do and writes nothing', () => {
    const sandbox = createSandbox({ init: false });
    const run = sandbox.run(['install', 'claude-code', '--dry-run']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Would install lore's hooks");
    expect(() => lstatSync(join(sandbox.home, '.claude', 'settings.json'))).toThrow();
  });
});

describe('lore install codex', () => {
  it('writes $CODEX_HOME/hooks.json with --host codex, says that Codex must trust the hooks, and uninstalls', () => {
    const sandbox = createSandbox({ init: false });
    const codexHome = join(sandbox.base, 'codex-home');
    const file = join(codexHome, 'hooks.json');
    const env = { CODEX_HOME: codexHome };
    const run = sandbox.run(['install', 'codex'], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('/hooks');
    expect(run.stdout).toContain('--dangerously-bypass-hook-trust');
    expect(new Set(loreCommands(read(file)))).toEqual(
      new Set([`NODE_EXTRA_CA_CERTS= node "${BUNDLE}" --host codex`]),
    );
    // Codex has no PostToolUseFailure: lore's after-failure hook runs on its PostToolUse
    const events = Object.keys(PLUGIN_HOOKS.hooks).map((event) =>
      event === 'PostToolUseFailure' ? 'PostToolUse' : event,
    );
    expect(Object.keys(read(file).hooks!)).toEqual(events);
    expect(read(file).hooks!.PostToolUse!.map((group) => group.matcher)).toEqual(
      PLUGIN_HOOKS.hooks.PostToolUseFailure!.map((group) => group.matcher),
    );
    expect(sandbox.run(['install', 'codex', '--json'], { env }).json<InstallJson>().changed).toBe(false);

    // the install made the file: nothing else is in it, so it goes
    expect(sandbox.run(['uninstall', 'codex'], { env }).code).toBe(0);
    expect(existsSync(file)).toBe(false);
  });

  it('defaults to ~/.codex/hooks.json', () => {
    const sandbox = createSandbox({ init: false });
    expect(sandbox.run(['install', 'codex']).code).toBe(0);
    expect(loreCommands(read(join(sandbox.home, '.codex', 'hooks.json')))).not.toEqual([]);
  });
});

describe('usage', () => {
  it.each([
    [['install'], 'takes 1 argument'],
    [['install', 'windsurf'], 'unknown agent "windsurf"'],
    [['install', 'codex', '--scope', 'global'], '--scope must be one of user, project'],
    [['uninstall', 'aider'], 'unknown agent "aider"'],
  ])('lore %j exits 2', (args, message) => {
    const sandbox = createSandbox({ init: false });
    const run = sandbox.run(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });
});

describe('install then uninstall gives back the user file byte for byte', () => {
  // tabs, CRLF, `1e3`, a 20-digit integer, a unicode escape, a blank line, keys in no order, no
  // final newline: what a JSON.stringify rewrite used to lose
  const USER_FILE =
    '{\r\n\t"zeta": 1e3,\r\n\t"big": 12345678901234567890,\r\n\r\n\t"name": "caf\\u00e9",\r\n\t"version": 1,\r\n\t"hooks": {\r\n\t\t"Stop": [{"hooks": [{"type": "command", "command": "notify"}]}]\r\n\t},\r\n\t"mcpServers": {"other": {"command": "y", "args": [[1, 2]]}}\r\n}';
  it.each([
    { agent: 'claude-code', file: ['.claude', 'settings.json'], install: ['install', 'claude-code'] },
    { agent: 'gemini', file: ['.gemini', 'settings.json'], install: ['install', 'gemini'] },
    { agent: 'cursor', file: ['.cursor', 'hooks.json'], install: ['install', 'cursor'] },
    { agent: 'mcp', file: ['.claude.json'], install: ['install', 'mcp', '--agent', 'claude-code'] },
  ])('$agent: $file', ({ file: parts, install }) => {
    const sandbox = createSandbox({ init: false });
    const file = join(sandbox.home, ...parts);
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, USER_FILE);

    const installed = sandbox.run(install);
    expect([installed.code, installed.stderr]).toEqual([0, '']);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toBe(USER_FILE);
    expect(
      text.startsWith('{\r\n\t"zeta": 1e3,\r\n\t"big": 12345678901234567890,\r\n\r\n\t"name": "caf\\u00e9",'),
    ).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
    const removed = sandbox.run(['uninstall', ...install.slice(1)]);
    expect([removed.code, removed.stderr]).toEqual([0, '']);
    expect(readFileSync(file, 'utf8')).toBe(USER_FILE);
  });
});

describe('uninstall takes out the containers install added, and only those', () => {
  // install adds `mcpServers: {}` around lore's server, Cursor's `"version": 1` and `hooks`; the
  // user's own empty containers (there before the install) stay
  it.each([
    {
      agent: 'gemini',
      file: ['.gemini', 'settings.json'],
      install: ['install', 'gemini'],
      had: '"mcpServers": {}',
    },
    {
      agent: 'cursor',
      file: ['.cursor', 'hooks.json'],
      install: ['install', 'cursor'],
      had: '"version": 1,\n  "hooks": {}',
    },
    {
      agent: 'mcp',
      file: ['.claude.json'],
      install: ['install', 'mcp', '--agent', 'claude-code'],
      had: '"mcpServers": {}',
    },
  ])('$agent: $file', ({ file: parts, install, had }) => {
    const sandbox = createSandbox({ init: false });
    const file = join(sandbox.home, ...parts);
    mkdirSync(join(file, '..'), { recursive: true });
    for (const original of ['{\n  "theme": "dark"\n}\n', `{\n  "theme": "dark",\n  ${had}\n}\n`]) {
      writeFileSync(file, original);
      expect(sandbox.run(install).code).toBe(0);
      expect(readFileSync(file, 'utf8')).not.toBe(original);
      expect(sandbox.run(['uninstall', ...install.slice(1)]).code).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(original);
    }
  });
});
