// lore install mcp / uninstall mcp through the built binary, on temporary agent configurations in
// the formats the agents' own `mcp add` writes (checked against claude 2.1.330 and codex 0.169.0).
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../helpers/cli.js';
import type { Sandbox } from '../helpers/cli.js';

const LORE = fileURLToPath(new URL('../../dist/cli/lore.cjs', import.meta.url));
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

const OTHER_SERVER = { type: 'stdio', command: 'npx', args: ['-y', 'some-server'], env: { TOKEN: 'x' } };

const cases: {
  agent: string;
  scope: 'user' | 'project';
  file: (s: Sandbox) => string;
  existing: string;
  check: (text: string) => void;
}[] = [
  {
    agent: 'claude-code',
    scope: 'user',
    file: (s) => join(s.home, '.claude.json'),
    existing: `${JSON.stringify({ numStartups: 3, mcpServers: { other: OTHER_SERVER } }, null, 2)}\n`,
    check: (text) => {
      const doc = JSON.parse(text) as { numStartups: number; mcpServers: Record<string, unknown> };
      expect(doc.numStartups).toBe(3);
      expect(doc.mcpServers.other).toEqual(OTHER_SERVER);
      expect(doc.mcpServers.lore).toEqual({
        type: 'stdio',
        env: {},
        command: process.execPath,
        args: [LORE, 'mcp'],
      });
    },
  },
  {
    agent: 'claude-code',
    scope: 'project',
    file: (s) => join(s.repo, '.mcp.json'),
    existing: `${JSON.stringify({ mcpServers: { other: OTHER_SERVER } }, null, 2)}\n`,
    check: (text) => {
      expect(Object.keys((JSON.parse(text) as { mcpServers: object }).mcpServers)).toEqual(['other', 'lore']);
    },
  },
  {
    agent: 'gemini',
    scope: 'user',
    file: (s) => join(s.home, '.gemini', 'settings.json'),
    existing: `${JSON.stringify({ theme: 'Default', mcpServers: { other: { command: 'x' } } }, null, 2)}\n`,
    check: (text) => {
      const doc = JSON.parse(text) as { theme: string; mcpServers: Record<string, unknown> };
      expect(doc.theme).toBe('Default');
      expect(doc.mcpServers).toEqual({
        other: { command: 'x' },
        lore: { command: process.execPath, args: [LORE, 'mcp'] },
      });
    },
  },
  {
    agent: 'gemini',
    scope: 'project',
    file: (s) => join(s.repo, '.gemini', 'settings.json'),
    existing: '',
    check: (text) => {
      expect(JSON.parse(text)).toEqual({
        mcpServers: { lore: { command: process.execPath, args: [LORE, 'mcp'] } },
      });
    },
  },
  {
    agent: 'codex',
    scope: 'user',
    file: (s) => join(s.home, '.codex', 'config.toml'),
    existing:
      'model = "o3"\n\n[mcp_servers.other]\ncommand = "npx"\nargs = ["-y", "x"]\n\n[mcp_servers.other.env]\nTOKEN = "x"\n',
    check: (text) => {
      expect(text).toBe(
        `model = "o3"\n\n[mcp_servers.other]\ncommand = "npx"\nargs = ["-y", "x"]\n\n[mcp_servers.other.env]\nTOKEN = "x"\n\n[mcp_servers.lore]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(LORE)}, "mcp"]\n`,
      );
    },
  },
];

describe('lore install mcp', () => {
  it.each(cases)(
    '$agent ($scope): adds lore, keeps the rest, is idempotent, uninstalls',
    ({ agent, scope, file, existing, check }) => {
      const sandbox = createSandbox();
      const path = file(sandbox);
      mkdirSync(join(path, '..'), { recursive: true });
      if (existing !== '') writeFileSync(path, existing);
      const install = sandbox.run(['install', 'mcp', '--agent', agent, '--scope', scope, '--json']);
      expect(install.code).toBe(0);
      expect(install.json()).toMatchObject({ agent, scope, file: path, changed: true });
      const installed = readFileSync(path, 'utf8');
      check(installed);

      const again = sandbox.run(['install', 'mcp', '--agent', agent, '--scope', scope]);
      expect(again.stdout).toContain('already registered');
      expect(readFileSync(path, 'utf8')).toBe(installed);

      const removed = sandbox.run(['uninstall', 'mcp', '--agent', agent, '--scope', scope, '--json']);
      expect(removed.json()).toMatchObject({ changed: true });
      // a file the install made and that holds nothing else goes
      const after = existing === '' ? '' : readFileSync(path, 'utf8');
      expect(existsSync(path)).toBe(after !== '');
      expect(after).not.toContain('"lore"');
      expect(after).not.toContain('mcp_servers.lore');
      expect(sandbox.run(['uninstall', 'mcp', '--agent', agent, '--scope', scope]).stdout).toContain(
        'nothing changed',
      );
    },
  );

  it('replaces an older lore entry in place in config.toml', () => {
    const sandbox = createSandbox();
    const path = join(sandbox.home, '.codex', 'config.toml');
    mkdirSync(join(sandbox.home, '.codex'));
    writeFileSync(
      path,
      '[mcp_servers.lore]\ncommand = "lore"\nargs = ["mcp"]\n\n[mcp_servers.lore.env]\nA = "1"\n\n[tui]\ntheme = "dark"\n',
    );
    sandbox.run(['install', 'mcp', '--agent', 'codex']);
    const text = readFileSync(path, 'utf8');
    // Where it was, the subtable of the old entry gone, the rest as it was.
    expect(text).toBe(
      `[mcp_servers.lore]\ncommand = ${JSON.stringify(process.execPath)}\nargs = [${JSON.stringify(LORE)}, "mcp"]\n\n[tui]\ntheme = "dark"\n`,
    );
  });

  // The line-based edit missed these and could write a duplicate key.
  it('replaces an inline-table entry under [mcp_servers] in place, keeping comments; refuses broken TOML', () => {
    const sandbox = createSandbox();
    const path = join(sandbox.home, '.codex', 'config.toml');
    mkdirSync(join(sandbox.home, '.codex'));
    writeFileSync(
      path,
      '# servers\n[mcp_servers]\nlore = { command = "lore", args = ["mcp"] } # old\nx = { command = "y" }\n',
    );
    expect(sandbox.run(['install', 'mcp', '--agent', 'codex']).code).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(
      `# servers\n[mcp_servers]\nlore = { command = ${JSON.stringify(process.execPath)}, args = [${JSON.stringify(LORE)}, "mcp"] } # old\nx = { command = "y" }\n`,
    );
    writeFileSync(path, 'model = "o3"\nmodel = "o4"\n');
    const broken = sandbox.run(['install', 'mcp', '--agent', 'codex']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`${path}:2: not valid TOML`);
    expect(readFileSync(path, 'utf8')).toBe('model = "o3"\nmodel = "o4"\n');
  });

  it('refuses a broken JSON file with its line, and an unknown agent with usage', () => {
    const sandbox = createSandbox();
    const path = join(sandbox.home, '.gemini', 'settings.json');
    mkdirSync(join(sandbox.home, '.gemini'));
    writeFileSync(path, '{\n  "theme": "x",\n  oops\n}\n');
    const broken = sandbox.run(['install', 'mcp', '--agent', 'gemini']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`${path}:3`);
    expect(readFileSync(path, 'utf8')).toBe('{\n  "theme": "x",\n  oops\n}\n');
    const unknown = sandbox.run(['install', 'mcp', '--agent', 'cursor']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('claude-code, codex, gemini');
    const codexProject = sandbox.run(['install', 'mcp', '--agent', 'codex', '--scope', 'project']);
    expect(codexProject.code).toBe(2);
  });

  it('uses $CLAUDE_CONFIG_DIR/.claude.json when set', () => {
    const sandbox = createSandbox();
    const dir = join(sandbox.base, 'claude-config');
    const run = sandbox.run(['install', 'mcp', '--agent', 'claude-code', '--json'], {
      env: { CLAUDE_CONFIG_DIR: dir },
    });
    expect(run.json()).toMatchObject({ file: join(dir, '.claude.json') });
    expect(read(join(dir, '.claude.json'))).toHaveProperty('mcpServers.lore');
  });
});
