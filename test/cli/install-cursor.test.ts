// lore install / uninstall cursor through the built binary, on temporary Cursor settings; the
// written hooks.json checked against the shape Cursor documents (version 1, flat entries).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSandbox } from '../helpers/cli.js';

const BUNDLE = fileURLToPath(new URL('../../plugin/bin/lore-hook.cjs', import.meta.url));
const LORE_BIN = fileURLToPath(new URL('../../dist/cli/lore.cjs', import.meta.url));

/**
 * Cursor's hooks.json as its hooks documentation describes it (read 2026-11-26): `version` 1 and
 * `hooks`, an object of event name to a list of entries, each with a `command` string and, on tool
 * events, an optional `matcher`; the agent events lore uses are sessionStart, preToolUse,
 * postToolUse and beforeShellExecution.
 */
const CursorHooksFile = z
  .object({
    version: z.literal(1),
    hooks: z.record(
      z.string(),
      z.array(
        z
          .object({
            command: z.string().min(1),
            matcher: z.string().optional(),
            timeout: z.number().optional(),
          })
          .strict(),
      ),
    ),
  })
  .passthrough();
const CURSOR_EVENTS = [
  'sessionStart',
  'preToolUse',
  'postToolUse',
  'beforeShellExecution',
  'stop',
  'afterFileEdit',
];

type HooksFile = z.infer<typeof CursorHooksFile>;
const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as HooksFile & Record<string, unknown>;
const USER_HOOKS = {
  version: 1,
  hooks: {
    afterFileEdit: [{ command: './hooks/format.sh' }],
    beforeShellExecution: [{ command: './hooks/audit.sh' }],
  },
};

describe('lore install cursor', () => {
  it("writes a hooks.json of the documented shape with lore on the four events, keeping the user's entries", () => {
    const sandbox = createSandbox({ init: false });
    const file = join(sandbox.home, '.cursor', 'hooks.json');
    mkdirSync(join(sandbox.home, '.cursor'));
    writeFileSync(file, JSON.stringify(USER_HOOKS, null, 2));

    const run = sandbox.run(['install', 'cursor']);
    expect([run.code, run.stderr]).toEqual([0, '']);
    const hooks = read(file);
    expect(CursorHooksFile.safeParse(hooks).success).toBe(true);
    expect(Object.keys(hooks.hooks).every((event) => CURSOR_EVENTS.includes(event))).toBe(true);
    expect(hooks.hooks.afterFileEdit).toEqual(USER_HOOKS.hooks.afterFileEdit);
    expect(hooks.hooks.beforeShellExecution![0]).toEqual(USER_HOOKS.hooks.beforeShellExecution[0]);
    const lore = Object.entries(hooks.hooks).flatMap(([event, entries]) =>
      entries
        .filter((entry) => entry.command.includes('lore-hook.cjs'))
        .map((entry) => [event, entry.matcher ?? '']),
    );
    expect(lore).toEqual([
      ['beforeShellExecution', ''],
      ['sessionStart', ''],
      ['preToolUse', 'Read|Write|Edit|StrReplace|Delete|Grep|Glob'],
      ['postToolUse', 'Shell|Read|Write|Edit|StrReplace|Delete|Grep|Glob'],
    ]);
    expect(hooks.hooks.sessionStart![0]!.command).toBe(`NODE_EXTRA_CA_CERTS= node "${BUNDLE}" --host cursor`);
    expect(JSON.parse(readFileSync(join(sandbox.home, '.cursor', 'mcp.json'), 'utf8'))).toEqual({
      mcpServers: { lore: { type: 'stdio', env: {}, command: process.execPath, args: [LORE_BIN, 'mcp'] } },
    });
  });

  it('is idempotent; --scope project writes .cursor/ in the repository; uninstall gives the file back', () => {
    const sandbox = createSandbox({ init: false });
    const file = join(sandbox.repo, '.cursor', 'hooks.json');
    mkdirSync(join(sandbox.repo, '.cursor'));
    writeFileSync(file, JSON.stringify(USER_HOOKS, null, 2));
    expect(sandbox.run(['install', 'cursor', '--scope', 'project']).code).toBe(0);
    const first = readFileSync(file, 'utf8');
    const again = sandbox.run(['install', 'cursor', '--scope', 'project', '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ agent: 'cursor', file, changed: false });
    expect(readFileSync(file, 'utf8')).toBe(first);
    expect(existsSync(join(sandbox.home, '.cursor'))).toBe(false);

    const removed = sandbox.run(['uninstall', 'cursor', '--scope', 'project']);
    expect([removed.code, removed.stdout.includes('mcpServers.lore')]).toEqual([0, true]);
    expect(read(file)).toEqual(USER_HOOKS);
  });

  it("leaves a user's own mcpServers.lore alone: install refuses with a hint, uninstall keeps it and says so", () => {
    const sandbox = createSandbox({ init: false });
    const mcpFile = join(sandbox.home, '.cursor', 'mcp.json');
    mkdirSync(join(sandbox.home, '.cursor'));
    const theirs = `${JSON.stringify({ mcpServers: { lore: { command: 'npx', args: ['-y', 'lore', 'mcp'], env: { LORE_HOME: '/team/lore' } } } })}\n`;
    writeFileSync(mcpFile, theirs);
    const install = sandbox.run(['install', 'cursor']);
    expect(install.code).toBe(1);
    expect(install.stderr).toContain(
      `${mcpFile} already has an MCP server named "lore" that lore did not write (npx -y lore mcp)`,
    );
    expect(install.stderr).toContain('rename or remove mcpServers.lore');
    expect(readFileSync(mcpFile, 'utf8')).toBe(theirs);
    expect(existsSync(join(sandbox.home, '.cursor', 'hooks.json'))).toBe(false);
    const uninstall = sandbox.run(['uninstall', 'cursor']);
    expect(uninstall.code).toBe(0);
    expect(uninstall.stdout).toContain(
      `mcpServers.lore in ${mcpFile} is not lore's (npx -y lore mcp): left as it is`,
    );
    expect(readFileSync(mcpFile, 'utf8')).toBe(theirs);
  });

  it('warns when lore is in .claude/settings.json too, which Cursor also runs', () => {
    const sandbox = createSandbox({ init: false });
    expect(sandbox.run(['install', 'claude-code', '--scope', 'project']).code).toBe(0);
    const run = sandbox.run(['install', 'cursor', '--scope', 'project', '--json']);
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { warnings: string[] }).warnings).toEqual([
      expect.stringContaining(join(sandbox.repo, '.claude', 'settings.json')),
    ]);
  });

  it.each([
    ['not JSON', '{ "version": 1, "hooks": { ,} }', ':1: not valid JSON'],
    ['another version', '{\n  "version": 2,\n  "hooks": {}\n}\n', ':2: "version" is 2'],
    [
      'hooks of the wrong shape',
      '{\n  "version": 1,\n  "hooks": {\n    "stop": {"command": "x"}\n  }\n}\n',
      ':4:',
    ],
  ])('refuses %s with the line and changes nothing', (_name, text, message) => {
    const sandbox = createSandbox({ init: false });
    const file = join(sandbox.home, '.cursor', 'hooks.json');
    mkdirSync(join(sandbox.home, '.cursor'));
    writeFileSync(file, text);
    for (const verb of ['install', 'uninstall']) {
      const run = sandbox.run([verb, 'cursor']);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`${file}${message}`);
      expect(readFileSync(file, 'utf8')).toBe(text);
    }
  });
});
