// The install planners edit a user's JSON settings in place: every byte lore does not change stays.
import { describe, expect, it } from 'vitest';
import { LoreError } from '../../src/core/errors.js';
import {
  planCursorHooksInstall,
  planCursorHooksUninstall,
} from '../../src/core/install/plan-cursor-hooks.js';
import { planHookInstall, planHookUninstall } from '../../src/core/install/plan-hook-settings.js';
import type { HookTable } from '../../src/core/install/plan-hook-settings.js';
import { planMcpJsonInstall, planMcpJsonUninstall } from '../../src/core/install/plan-mcp-config.js';

const FILE = '/home/u/.claude/settings.json';
const isOurs = (command: string) => command.includes('lore-hook.cjs');
const handler = (path: string) => ({
  type: 'command' as const,
  command: `node "${path}/lore-hook.cjs"`,
  timeout: 5,
});
const DESIRED: HookTable = {
  PreToolUse: [{ matcher: 'Bash|Edit', hooks: [handler('/new')] }],
  SessionStart: [{ hooks: [handler('/new')] }],
};
const CURSOR = { preToolUse: [{ command: 'node "/new/lore-hook.cjs" --host cursor' }] };
const MCP = { command: '/usr/bin/node', args: ['/usr/lib/lore/dist/cli/lore.cjs', 'mcp'] };

// Each file holds a user hook, an `other` MCP server and a Cursor entry, so uninstall has
// something of the user's left in every container lore touched.
const CASES = [
  {
    name: 'tabs, 1e3, a big integer, a unicode escape, a blank line, no final newline',
    text: '{\n\t"cleanupPeriodDays": 1e3,\n\t"big": 12345678901234567890,\n\n\t"name": "caf\\u00e9",\n\t"hooks": {\n\t\t"PreToolUse": [\n\t\t\t{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit"}]}\n\t\t]\n\t},\n\t"mcpServers": {\n\t\t"other": {"command": "y"}\n\t}\n}',
    kept: [
      '1e3',
      '12345678901234567890',
      'caf\\u00e9',
      ',\n\n\t"name"',
      '{"matcher": "Bash", "hooks": [{"type": "command", "command": "audit"}]}',
    ],
  },
  {
    name: 'CRLF line endings and a final newline',
    text: '{\r\n  "z": 1.50,\r\n  "a": [[1, 2], [3, [4]]],\r\n  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify"}]}]},\r\n  "mcpServers": {"other": {"command": "y"}}\r\n}\r\n',
    kept: ['"z": 1.50', '[[1, 2], [3, [4]]]'],
  },
  {
    name: 'four spaces, keys in no order, escapes in keys',
    text: '{\n    "zeta": {"deep": [[[]]]},\n    "hooks": {\n        "Stop": []\n    },\n    "mcpServers": {\n        "other": {\n            "command": "y",\n            "args": ["\\"q\\"", "\\/"]\n        }\n    },\n    "key\\u0041": -0.0e-0\n}\n',
    kept: ['"key\\u0041": -0.0e-0', '"\\"q\\"", "\\/"', '{"deep": [[[]]]}'],
  },
  {
    name: 'all on one line',
    text: '{"b":2,"a":1E2,"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"x"}]}]},"mcpServers":{"other":{"command":"y"}}}',
    kept: ['{"b":2,"a":1E2,'],
  },
];

const cursorText = (text: string) =>
  text.replace('"hooks"', '"version": 1, "hooks"').replace(/"(PreToolUse|Stop)"/, '"beforeShellExecution"');

describe('install and uninstall keep the bytes of the user file', () => {
  describe.each(CASES)('$name', ({ text, kept }) => {
    it('hooks: install only inserts, uninstall gives the original back byte for byte', () => {
      const installed = planHookInstall(text, DESIRED, isOurs, FILE);
      expect(installed.changed).toBe(true);
      for (const fragment of kept) expect(installed.text).toContain(fragment);
      expect(installed.text.endsWith('\n')).toBe(text.endsWith('\n'));
      expect(installed.text.replace(/\r\n/g, '').includes('\n')).toBe(
        !text.includes('\r\n') && text.includes('\n'),
      );
      const removed = planHookUninstall(installed.text, isOurs, FILE);
      expect(removed.text).toBe(text);
      expect(planHookInstall(installed.text, DESIRED, isOurs, FILE).changed).toBe(false);
    });

    it('MCP server: install only inserts, uninstall gives the original back byte for byte', () => {
      const installed = planMcpJsonInstall(text, MCP, FILE);
      for (const fragment of kept) expect(installed.text).toContain(fragment);
      expect(JSON.parse(installed.text).mcpServers.lore).toEqual(MCP);
      expect(planMcpJsonUninstall(installed.text, FILE).text).toBe(text);
    });

    it('Cursor hooks: install only inserts, uninstall gives the original back byte for byte', () => {
      const before = cursorText(text);
      const installed = planCursorHooksInstall(before, CURSOR, isOurs, FILE);
      for (const fragment of kept) expect(installed.text).toContain(fragment);
      expect(JSON.parse(installed.text).hooks.preToolUse).toEqual(CURSOR.preToolUse);
      expect(planCursorHooksUninstall(installed.text, isOurs, FILE).text).toBe(before);
    });
  });

  it.each([
    [
      '{}',
      '{\n  "mcpServers": {\n    "lore": {\n      "command": "/usr/bin/node",\n      "args": [\n        "/usr/lib/lore/dist/cli/lore.cjs",\n        "mcp"\n      ]\n    }\n  }\n}',
    ],
    [
      '{\r\n\t"mcpServers": {}\r\n}',
      '{\r\n\t"mcpServers": {\r\n\t\t"lore": {\r\n\t\t\t"command": "/usr/bin/node",\r\n\t\t\t"args": [\r\n\t\t\t\t"/usr/lib/lore/dist/cli/lore.cjs",\r\n\t\t\t\t"mcp"\r\n\t\t\t]\r\n\t\t}\r\n\t}\r\n}',
    ],
    [
      '{"a":1}',
      '{"a":1,"mcpServers":{"lore":{"command":"/usr/bin/node","args":["/usr/lib/lore/dist/cli/lore.cjs","mcp"]}}}',
    ],
  ])('%j: lore inserts its entry in the file style (indentation, line ending, one line)', (before, after) => {
    expect(planMcpJsonInstall(before, MCP, FILE).text).toBe(after);
  });

  it('replaces only the value of an older lore entry, at its place, and keeps everything around it', () => {
    const before =
      '{\n\t"mcpServers": {\n\t\t"lore": {"command": "lore", "args": ["mcp"]},\n\t\t"other": {"n": 1e3}\n\t}\n}';
    expect(planMcpJsonInstall(before, MCP, FILE).text).toBe(
      '{\n\t"mcpServers": {\n\t\t"lore": {\n\t\t\t"command": "/usr/bin/node",\n\t\t\t"args": [\n\t\t\t\t"/usr/lib/lore/dist/cli/lore.cjs",\n\t\t\t\t"mcp"\n\t\t\t]\n\t\t},\n\t\t"other": {"n": 1e3}\n\t}\n}',
    );
  });

  it("takes out lore's handler from a group it shares with the user's, keeping the user's bytes", () => {
    const before = `{\n  "hooks": {\n    "PreToolUse": [\n      {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit", "timeout": 1e1}, ${JSON.stringify(handler('/old'))}]}\n    ]\n  }\n}\n`;
    const after = planHookUninstall(before, isOurs, FILE).text;
    expect(after).toBe(
      '{\n  "hooks": {\n    "PreToolUse": [\n      {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit", "timeout": 1e1}]}\n    ]\n  }\n}\n',
    );
  });

  it('writes a missing or empty file whole, as before', () => {
    for (const before of [undefined, '', '  \n']) {
      expect(planMcpJsonInstall(before, MCP, FILE).text).toBe(
        `${JSON.stringify({ mcpServers: { lore: MCP } }, null, 2)}\n`,
      );
    }
  });

  it.each([
    ['planHookInstall', (t: string) => planHookInstall(t, DESIRED, isOurs, FILE)],
    ['planHookUninstall', (t: string) => planHookUninstall(t, isOurs, FILE)],
    ['planMcpJsonInstall', (t: string) => planMcpJsonInstall(t, MCP, FILE)],
    ['planMcpJsonUninstall', (t: string) => planMcpJsonUninstall(t, FILE)],
    ['planCursorHooksInstall', (t: string) => planCursorHooksInstall(t, CURSOR, isOurs, FILE)],
    ['planCursorHooksUninstall', (t: string) => planCursorHooksUninstall(t, isOurs, FILE)],
  ] as const)('%s still refuses comments (JSONC) with the file and line', (_name, plan) => {
    expect(() => plan('{\n  // mine\n  "a": 1\n}\n')).toThrow(LoreError);
    expect(() => plan('{\n  // mine\n  "a": 1\n}\n')).toThrow(`${FILE}:2: not valid JSON`);
  });
});
