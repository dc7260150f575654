import { describe, expect, it } from 'vitest';
import { LoreError } from '../../src/core/errors.js';
import { locateJsonError } from '../../src/core/install/locate-json-error.js';
import { planHookInstall, planHookUninstall } from '../../src/core/install/plan-hook-settings.js';
import type { HookTable } from '../../src/core/install/plan-hook-settings.js';
import {
  isLoreMcpServer,
  planMcpJsonInstall,
  planMcpJsonUninstall,
} from '../../src/core/install/plan-mcp-config.js';
import {
  planCursorHooksInstall,
  planCursorHooksUninstall,
} from '../../src/core/install/plan-cursor-hooks.js';

const FILE = '/home/u/.claude/settings.json';
const isOurs = (command: string) => command.includes('lore-hook.cjs');
const ours = (path: string) => ({
  type: 'command' as const,
  command: `node "${path}/lore-hook.cjs"`,
  timeout: 5,
});
const DESIRED: HookTable = {
  PreToolUse: [{ matcher: 'Bash|Edit', hooks: [ours('/new')] }],
  SessionStart: [{ hooks: [ours('/new')] }],
};
const theirs = { type: 'command', command: 'my-audit.sh' };
const USER_SETTINGS = {
  model: 'opus',
  permissions: { allow: ['Bash(npm test:*)'] },
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [theirs] }],
    Stop: [{ hooks: [{ type: 'command', command: 'notify-send done' }] }],
  },
};
const text = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

function refusal(run: () => unknown): LoreError {
  try {
    run();
  } catch (error) {
    return error as LoreError;
  }
  throw new Error('expected a refusal');
}

describe('locateJsonError', () => {
  it.each([
    { json: '{"a": 1}', at: undefined },
    { json: '\n\n  [1, 2, {"b": null}]  \n', at: undefined },
    { json: '{\n  "a": 1,\n  "b": ,\n}', at: { line: 3, column: 8 } },
    { json: '{\n  "a": 1,\n}', at: { line: 3, column: 1 } },
    { json: '{\n  "a": 1\n', at: { line: 3, column: 1 } },
    { json: "{\n  'a': 1\n}", at: { line: 2, column: 3 } },
    { json: '{"a": 1} x', at: { line: 1, column: 10 } },
    { json: '// comment\n{}', at: { line: 1, column: 1 } },
    { json: '{"a": "tab\there"}', at: { line: 1, column: 11 } },
  ])('$json', ({ json, at }) => {
    const found = locateJsonError(json);
    expect(found === undefined ? undefined : { line: found.line, column: found.column }).toEqual(at);
    expect(found === undefined).toBe(isValidJson(json));
  });
});

function isValidJson(json: string): boolean {
  try {
    JSON.parse(json);
    return true;
  } catch {
    return false;
  }
}

describe('planHookInstall', () => {
  it('creates the hooks in a missing or empty file', () => {
    for (const current of [undefined, '', '{}\n']) {
      const plan = planHookInstall(current, DESIRED, isOurs, FILE);
      expect(plan.changed).toBe(true);
      expect(JSON.parse(plan.text)).toEqual({ hooks: DESIRED });
      expect(plan.installed).toEqual(['PreToolUse Bash|Edit', 'SessionStart']);
    }
  });

  it('appends to the user hooks and keeps every other key', () => {
    const plan = planHookInstall(text(USER_SETTINGS), DESIRED, isOurs, FILE);
    expect(JSON.parse(plan.text)).toEqual({
      ...USER_SETTINGS,
      hooks: {
        PreToolUse: [...USER_SETTINGS.hooks.PreToolUse, ...DESIRED.PreToolUse!],
        Stop: USER_SETTINGS.hooks.Stop,
        SessionStart: DESIRED.SessionStart,
      },
    });
  });

  it('changes nothing the second time, byte for byte, even after hand formatting', () => {
    const once = planHookInstall(text(USER_SETTINGS), DESIRED, isOurs, FILE).text;
    const reformatted = JSON.stringify(JSON.parse(once));
    const twice = planHookInstall(reformatted, DESIRED, isOurs, FILE);
    expect(twice).toEqual({ text: reformatted, changed: false, installed: twice.installed, removed: [] });
  });

  it('leaves a user hook added after lore where it is when nothing changes', () => {
    const installed = JSON.parse(planHookInstall(undefined, DESIRED, isOurs, FILE).text);
    installed.hooks.PreToolUse.push({ matcher: 'Edit', hooks: [theirs] });
    expect(planHookInstall(text(installed), DESIRED, isOurs, FILE).changed).toBe(false);
  });

  it('replaces an older lore (another path, another matcher) and only that', () => {
    const old = {
      hooks: {
        PreToolUse: [
          { matcher: 'Bash', hooks: [theirs, ours('/old')] },
          { matcher: 'Read', hooks: [ours('/old')] },
        ],
        UserPromptSubmit: [{ hooks: [ours('/old')] }],
      },
    };
    const plan = planHookInstall(text(old), DESIRED, isOurs, FILE);
    expect(JSON.parse(plan.text)).toEqual({
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [theirs] }, ...DESIRED.PreToolUse!],
        SessionStart: DESIRED.SessionStart,
      },
    });
    expect(plan.removed).toEqual(['PreToolUse Bash', 'PreToolUse Read', 'UserPromptSubmit']);
  });

  it.each([
    {
      name: 'broken JSON',
      body: '{\n  "model": "opus",\n  "hooks": {\n}\n',
      line: 5,
      says: 'not valid JSON',
    },
    { name: 'an array', body: '[]\n', line: 1, says: 'must be a JSON object' },
    { name: 'hooks as a list', body: '{\n  "hooks": []\n}\n', line: 2, says: '"hooks" must be an object' },
    {
      name: 'an event that is not a list',
      body: '{\n  "hooks": {\n    "PreToolUse": {}\n  }\n}\n',
      line: 3,
      says: '"hooks.PreToolUse" must be a list',
    },
    {
      name: 'a group without hooks',
      body: '{\n  "hooks": {\n    "Stop": [{"command": "x"}]\n  }\n}\n',
      line: 3,
      says: '"hooks.Stop[0]"',
    },
  ])('refuses $name with the file and line', ({ body, line, says }) => {
    for (const plan of [
      () => planHookInstall(body, DESIRED, isOurs, FILE),
      () => planHookUninstall(body, isOurs, FILE),
    ]) {
      const error = refusal(plan);
      expect(error).toBeInstanceOf(LoreError);
      expect(error.code).toBe('invalid');
      expect(error.message).toContain(`${FILE}:${line}: `);
      expect(error.message).toContain(says);
    }
  });
});

describe('planHookUninstall', () => {
  it('takes out exactly what install put in', () => {
    const installed = planHookInstall(text(USER_SETTINGS), DESIRED, isOurs, FILE).text;
    const plan = planHookUninstall(installed, isOurs, FILE);
    expect(plan.changed).toBe(true);
    expect(JSON.parse(plan.text)).toEqual(USER_SETTINGS);
    expect(plan.removed).toEqual(['PreToolUse Bash|Edit', 'SessionStart']);
  });

  it('leaves the hooks key it emptied (the CLI knows whether the install made it), and changes nothing when lore is absent', () => {
    const installed = planHookInstall('{"model": "x"}', DESIRED, isOurs, FILE).text;
    expect(JSON.parse(planHookUninstall(installed, isOurs, FILE).text)).toEqual({ model: 'x', hooks: {} });
    const untouched = text(USER_SETTINGS);
    expect(planHookUninstall(untouched, isOurs, FILE)).toEqual({
      text: untouched,
      changed: false,
      installed: [],
      removed: [],
    });
    expect(planHookUninstall(undefined, isOurs, FILE).changed).toBe(false);
  });
});

describe('a settings file that starts with a UTF-8 byte order mark', () => {
  const BOM = '\uFEFF';
  const mcpEntry = { command: 'lore', args: ['mcp'] };
  const cursorTable = { preToolUse: [{ command: 'node "/new/lore-hook.cjs" --host cursor' }] };
  it.each([
    ['planHookInstall', (t: string) => planHookInstall(t, DESIRED, isOurs, FILE)],
    ['planHookUninstall', (t: string) => planHookUninstall(t, isOurs, FILE)],
    ['planMcpJsonInstall', (t: string) => planMcpJsonInstall(t, mcpEntry, FILE)],
    ['planMcpJsonUninstall', (t: string) => planMcpJsonUninstall(t, FILE)],
    ['planCursorHooksInstall', (t: string) => planCursorHooksInstall(t, cursorTable, isOurs, FILE)],
    ['planCursorHooksUninstall', (t: string) => planCursorHooksUninstall(t, isOurs, FILE)],
  ] as const)('%s reads it, plans the same as without it, and keeps it in front', (_name, plan) => {
    const installed = planHookInstall(text(USER_SETTINGS), DESIRED, isOurs, FILE).text;
    const withMcp = planMcpJsonInstall(installed, mcpEntry, FILE).text;
    for (const before of [text(USER_SETTINGS), withMcp]) {
      const plain = plan(before);
      const marked = plan(`${BOM}${before}`);
      expect(marked).toEqual({ ...plain, text: `${BOM}${plain.text}` });
    }
  });
});

describe('mcpServers.lore: only lore its own entry', () => {
  const LORE = '/usr/lib/node_modules/lore/dist/cli/lore.cjs';
  const mcpEntry = { command: '/usr/bin/node', args: [LORE, 'mcp'] };
  const withLore = (lore: unknown) => text({ theme: 'x', mcpServers: { other: { command: 'y' }, lore } });

  it.each([
    [{ command: '/usr/bin/node', args: [LORE, 'mcp'] }, true, 'this lore'],
    [
      { command: 'node', args: ['/old/lore/dist/cli/bin.js', 'mcp'], type: 'stdio', env: {} },
      true,
      'an older path',
    ],
    [{ command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/bin/lore-mcp.cjs'] }, true, "the plugin's launcher"],
    [{ command: 'lore', args: ['mcp'] }, true, 'lore on PATH, as an older lore wrote it'],
    [
      { command: 'npx', args: ['-y', 'lore', 'mcp'], env: { LORE_HOME: '/team/lore' } },
      false,
      'npx with env',
    ],
    [{ command: 'lore', args: ['mcp'], env: { LORE_HOME: '/team' } }, false, 'lore with env of its own'],
    [{ command: 'python', args: ['-m', 'lore_server'] }, false, 'another tool named lore'],
    ['lore', false, 'not an object'],
  ])('%j: %s (%s)', (entry, ours, _why) => {
    expect(isLoreMcpServer(entry)).toBe(ours);
  });

  it("install replaces lore's own entry and refuses another, naming the file and writing nothing", () => {
    const older = planMcpJsonInstall(withLore({ command: 'lore', args: ['mcp'] }), mcpEntry, FILE);
    expect(older.changed).toBe(true);
    expect((JSON.parse(older.text) as { mcpServers: { lore: unknown } }).mcpServers.lore).toEqual(mcpEntry);
    const foreign = { command: 'npx', args: ['-y', 'lore', 'mcp'], env: { LORE_HOME: '/team/lore' } };
    const error = refusal(() => planMcpJsonInstall(withLore(foreign), mcpEntry, FILE));
    expect(error.code).toBe('conflict');
    expect(error.message).toContain(
      `${FILE} already has an MCP server named "lore" that lore did not write (npx -y lore mcp)`,
    );
    expect(error.hint).toContain('rename or remove mcpServers.lore');
  });

  it("uninstall removes lore's own entry and keeps another, saying so", () => {
    const ours = planMcpJsonUninstall(withLore(mcpEntry), FILE);
    expect(ours.changed).toBe(true);
    expect(JSON.parse(ours.text)).toEqual({ theme: 'x', mcpServers: { other: { command: 'y' } } });
    const foreign = { command: 'npx', args: ['-y', 'lore', 'mcp'] };
    expect(planMcpJsonUninstall(withLore(foreign), FILE)).toEqual({
      changed: false,
      text: withLore(foreign),
      kept: `mcpServers.lore in ${FILE} is not lore's (npx -y lore mcp): left as it is`,
    });
  });
});
