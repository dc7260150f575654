// Codex's config.toml: lore's MCP entry in every form TOML allows, replaced or removed by exact
// spans, every other byte (comments included) kept, never a duplicate key or a broken file.
import fc from 'fast-check';
import { parseTOML } from 'toml-eslint-parser';
import { describe, expect, it } from 'vitest';
import { planMcpTomlInstall, planMcpTomlUninstall } from '../../src/core/install/plan-mcp-toml.js';
import { LoreError } from '../../src/core/errors.js';

const ENTRY = { command: '/usr/bin/node', args: ['/opt/lore/bin.js', 'mcp'] };
const INLINE = '{ command = "/usr/bin/node", args = ["/opt/lore/bin.js", "mcp"] }';
const TABLE = '[mcp_servers.lore]\ncommand = "/usr/bin/node"\nargs = ["/opt/lore/bin.js", "mcp"]';

describe('planMcpTomlInstall', () => {
  it.each([
    { name: 'no file', before: '', after: `${TABLE}\n` },
    {
      name: 'other settings, appended as a table',
      before: '# my codex\nmodel = "o3" # fast\n',
      after: `# my codex\nmodel = "o3" # fast\n\n${TABLE}\n`,
    },
    {
      name: 'an inline table, replaced in place with its comment',
      before: '# top\nmcp_servers.lore = { command = "lore", args = ["mcp"] } # mine\nmodel = "o3"\n',
      after: `# top\nmcp_servers.lore = ${INLINE} # mine\nmodel = "o3"\n`,
    },
    {
      name: 'dotted keys, folded into one line',
      before: 'mcp_servers.lore.command = "lore"\n# keep me\nmcp_servers.lore.args = ["mcp"]\nmodel = "o3"\n',
      after: `mcp_servers.lore = ${INLINE}\n# keep me\nmodel = "o3"\n`,
    },
    {
      name: 'a key under [mcp_servers]',
      before:
        '[mcp_servers]\nother = { command = "x" }\nlore = { command = "lore" }\n\n[tui]\ntheme = "dark"\n',
      after: `[mcp_servers]\nother = { command = "x" }\nlore = ${INLINE}\n\n[tui]\ntheme = "dark"\n`,
    },
    {
      name: 'a table with a subtable, replaced in place',
      before:
        '[mcp_servers.lore]\ncommand = "lore"\nargs = ["mcp"]\n\n[mcp_servers.lore.env]\nA = "1"\n\n[tui]\ntheme = "dark"\n',
      after: `${TABLE}\n\n[tui]\ntheme = "dark"\n`,
    },
  ])('$name', ({ before, after }) => {
    const plan = planMcpTomlInstall(before, ENTRY);
    expect(plan).toEqual({ changed: true, text: after });
    expect(() => parseTOML(plan.text)).not.toThrow();
    expect(planMcpTomlInstall(plan.text, ENTRY)).toEqual({ changed: false, text: after });
  });

  it.each([
    { name: 'broken TOML', text: 'model = "o3"\n[tui = 1\n', message: /config\.toml:2: not valid TOML/ },
    { name: 'a duplicate key', text: 'a = 1\na = 2\n', message: /config\.toml:2: not valid TOML/ },
    {
      name: 'lore inside an inline mcp_servers table',
      text: 'mcp_servers = { lore = { command = "x" } }\n',
      message: /config\.toml:1: the MCP servers are one inline table/,
    },
  ])('refuses $name with its line, changing nothing', ({ text, message }) => {
    expect(() => planMcpTomlInstall(text, ENTRY)).toThrow(LoreError);
    expect(() => planMcpTomlInstall(text, ENTRY)).toThrow(message);
  });
});

describe('planMcpTomlUninstall', () => {
  it.each([
    ['# a\nmodel = "o3"\n', '# a\nmodel = "o3"\n', false],
    [`model = "o3"\n\n${TABLE}\n`, 'model = "o3"\n', true],
    [`# top\nmcp_servers.lore = ${INLINE} # mine\nmodel = "o3"\n`, '# top\nmodel = "o3"\n', true],
    [
      '[mcp_servers]\nlore = { command = "x" }\nother = { command = "y" }\n',
      '[mcp_servers]\nother = { command = "y" }\n',
      true,
    ],
  ])('%j -> %j', (before, after, changed) => {
    expect(planMcpTomlUninstall(before)).toEqual({ changed, text: after });
  });
});

describe('install then uninstall', () => {
  // Any file of other servers, settings and comments comes back byte for byte.
  const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,8}$/).filter((n) => n !== 'lore');
  const comment = fc.stringMatching(/^[ a-z0-9]{0,20}$/).map((c) => `# ${c}`);
  const server = fc
    .tuple(name, fc.stringMatching(/^[a-z0-9/._-]{1,12}$/), comment)
    .map(([n, command, c]) => `${c}\n[mcp_servers.${n}]\ncommand = ${JSON.stringify(command)}\n`);
  const files = fc
    .tuple(fc.uniqueArray(server, { maxLength: 4, selector: (s) => s.split('\n')[1] }), comment)
    .map(([servers, top]) => `${top}\nmodel = "o3"\n${servers.length > 0 ? `\n${servers.join('\n')}` : ''}`);

  it('restores the file exactly', () => {
    fc.assert(
      fc.property(files, (text) => {
        const installed = planMcpTomlInstall(text, ENTRY);
        expect(installed.changed).toBe(true);
        expect(planMcpTomlUninstall(installed.text).text).toBe(text);
      }),
    );
  });
});
