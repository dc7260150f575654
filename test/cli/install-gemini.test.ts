// lore install / uninstall gemini through the built binary, on temporary Gemini CLI settings; and
// the shipped extension folder (gemini-extension/) that `gemini extensions install|link` takes.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LESSON_PROTOCOL } from '../../src/core/inject/session-protocol.js';
import { createSandbox } from '../helpers/cli.js';

const EXTENSION = fileURLToPath(new URL('../../gemini-extension/', import.meta.url)).replace(/\/$/, '');
const BUNDLE = join(EXTENSION, 'bin', 'lore-hook.cjs');
const LORE_BIN = fileURLToPath(new URL('../../dist/cli/lore.cjs', import.meta.url));

type Group = {
  matcher?: string;
  hooks: { type: string; command: string; timeout?: number; name?: string }[];
};
type Settings = { hooks?: Record<string, Group[]>; mcpServers?: Record<string, unknown> } & Record<
  string,
  unknown
>;

const USER_SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  mcpServers: { github: { command: 'gh-mcp', args: [] } },
  hooks: {
    BeforeTool: [{ matcher: 'write_file', hooks: [{ type: 'command', command: '/usr/local/bin/audit' }] }],
    AfterAgent: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
  },
};

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Settings;
const loreCommands = (settings: Settings) =>
  Object.values(settings.hooks ?? {})
    .flat()
    .flatMap((group) => group.hooks.map((handler) => handler.command))
    .filter((command) => command.includes('lore-hook.cjs'));

describe('lore install gemini', () => {
  it("adds lore's hooks and MCP server to ~/.gemini/settings.json and keeps everything else", () => {
    const sandbox = createSandbox({ init: false });
    const file = join(sandbox.home, '.gemini', 'settings.json');
    mkdirSync(join(sandbox.home, '.gemini'));
    writeFileSync(file, JSON.stringify(USER_SETTINGS, null, 2));

    const run = sandbox.run(['install', 'gemini']);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toContain(`Installed lore's hooks and MCP server for Gemini CLI in ${file}`);
    const settings = read(file);
    expect(settings.security).toEqual(USER_SETTINGS.security);
    expect(settings.mcpServers).toEqual({
      github: USER_SETTINGS.mcpServers.github,
      lore: { command: process.execPath, args: [LORE_BIN, 'mcp'] },
    });
    expect(settings.hooks!.BeforeTool![0]).toEqual(USER_SETTINGS.hooks.BeforeTool[0]);
    expect(settings.hooks!.AfterAgent![0]).toEqual(USER_SETTINGS.hooks.AfterAgent[0]);
    expect(Object.keys(settings.hooks!).sort()).toEqual([
      'AfterAgent',
      'AfterTool',
      'BeforeAgent',
      'BeforeTool',
      'SessionStart',
    ]);
    expect(new Set(loreCommands(settings))).toEqual(
      new Set([`NODE_EXTRA_CA_CERTS= node "${BUNDLE}" --host gemini`]),
    );
    // Gemini CLI's timeouts are milliseconds: no lore hook may get under a second
    const timeouts = Object.values(settings.hooks!)
      .flat()
      .flatMap((group) => group.hooks)
      .filter((handler) => handler.command.includes('lore-hook.cjs'))
      .map((handler) => handler.timeout ?? 0);
    expect(Math.min(...timeouts)).toBeGreaterThanOrEqual(1000);
  });

  it('is idempotent, and --scope project writes .gemini/settings.json in the repository', () => {
    const sandbox = createSandbox({ init: false });
    const file = join(sandbox.repo, '.gemini', 'settings.json');
    expect(sandbox.run(['install', 'gemini', '--scope', 'project']).code).toBe(0);
    const first = readFileSync(file, 'utf8');
    const again = sandbox.run(['install', 'gemini', '--scope', 'project', '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      agent: 'gemini',
      scope: 'project',
      file,
      changed: false,
    });
    expect(readFileSync(file, 'utf8')).toBe(first);
    expect(existsSync(join(sandbox.home, '.gemini', 'settings.json'))).toBe(false);
  });

  it('honours GEMINI_CLI_HOME, and --dry-run writes nothing', () => {
    const sandbox = createSandbox({ init: false });
    const geminiHome = join(sandbox.base, 'gemini-home');
    const dry = sandbox.run(['install', 'gemini', '--dry-run'], { env: { GEMINI_CLI_HOME: geminiHome } });
    expect([dry.code, dry.stdout.includes('Would install')]).toEqual([0, true]);
    expect(existsSync(join(geminiHome, '.gemini', 'settings.json'))).toBe(false);
    expect(sandbox.run(['install', 'gemini'], { env: { GEMINI_CLI_HOME: geminiHome } }).code).toBe(0);
    expect(loreCommands(read(join(geminiHome, '.gemini', 'settings.json')))).not.toEqual([]);
  });

  it('warns when the lore extension is installed too', () => {
    const sandbox = createSandbox({ init: false });
    const extension = join(sandbox.home, '.gemini', 'extensions', 'lore');
    mkdirSync(extension, { recursive: true });
    writeFileSync(join(extension, 'gemini-extension.json'), '{"name":"lore","version":"0.1.0"}');
    const run = sandbox.run(['install', 'gemini', '--json']);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { warnings: string[] }).warnings).toEqual([
      expect.stringContaining('gemini extensions uninstall lore'),
    ]);
  });

  it('refuses settings that are not JSON, with the line, and changes nothing', () => {
    const sandbox = createSandbox({ init: false });
    const file = join(sandbox.home, '.gemini', 'settings.json');
    mkdirSync(join(sandbox.home, '.gemini'));
    const broken = '{\n  "theme": "dark",\n  "hooks": {,\n}\n';
    writeFileSync(file, broken);
    for (const verb of ['install', 'uninstall']) {
      const run = sandbox.run([verb, 'gemini']);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`${file}:3: not valid JSON`);
      expect(run.stderr).toContain('lore changed nothing');
      expect(readFileSync(file, 'utf8')).toBe(broken);
    }
  });
});

describe('lore uninstall gemini', () => {
  it("takes out lore's hooks and MCP server only; a second run changes nothing", () => {
    const sandbox = createSandbox({ init: false });
    const file = join(sandbox.home, '.gemini', 'settings.json');
    mkdirSync(join(sandbox.home, '.gemini'));
    writeFileSync(file, JSON.stringify(USER_SETTINGS, null, 2));
    expect(sandbox.run(['install', 'gemini']).code).toBe(0);
    const run = sandbox.run(['uninstall', 'gemini']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('mcpServers.lore');
    expect(read(file)).toEqual(USER_SETTINGS);
    const again = sandbox.run(['uninstall', 'gemini', '--json']);
    expect([again.code, (JSON.parse(again.stdout) as { changed: boolean }).changed]).toEqual([0, false]);
  });
});

describe('the gemini-extension folder', () => {
  const manifest = JSON.parse(readFileSync(join(EXTENSION, 'gemini-extension.json'), 'utf8')) as {
    name: string;
    version: string;
    contextFileName: string;
    mcpServers: Record<string, { command: string; args: string[] }>;
  };
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
    files: string[];
  };

  it('is named lore, versioned with the package, shipped in it, with its MCP server and context file', () => {
    expect([manifest.name, manifest.version, pkg.files.includes('gemini-extension')]).toEqual([
      'lore',
      pkg.version,
      true,
    ]);
    expect(manifest.mcpServers.lore).toEqual({
      command: 'node',
      args: ['${extensionPath}${/}bin${/}lore-mcp.cjs'],
    });
    expect(readFileSync(join(EXTENSION, manifest.contextFileName), 'utf8')).toContain(LESSON_PROTOCOL);
  });

  it("its bin/ holds the same bundles as the Claude Code plugin's (npm run build writes both)", () => {
    for (const file of ['lore-hook.cjs', 'lore-hook-core.cjs', 'lore-manifest.cjs', 'lore-mcp.cjs']) {
      const plugin = readFileSync(new URL(`../../plugin/bin/${file}`, import.meta.url), 'utf8');
      expect(readFileSync(join(EXTENSION, 'bin', file), 'utf8') === plugin).toBe(true);
    }
  });

  it('hooks.json names only files inside the extension, through ${extensionPath}', () => {
    const hooks = JSON.parse(readFileSync(join(EXTENSION, 'hooks', 'hooks.json'), 'utf8')) as {
      hooks: Record<string, Group[]>;
    };
    const commands = Object.values(hooks.hooks)
      .flat()
      .flatMap((group) => group.hooks.map((handler) => handler.command));
    expect(new Set(commands)).toEqual(
      new Set(['NODE_EXTRA_CA_CERTS= node "${extensionPath}/bin/lore-hook.cjs" --host gemini']),
    );
  });
});
