import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lessonKeys } from '../../src/core/manifest/build-manifest.js';
import {
  expandClauses,
  packLiteralTable,
  satisfiedKeys,
  reservedIn,
  toolScope,
  unpackLiteralTable,
} from '../../src/core/inject/literal-keys.js';
import type { LiteralTexts } from '../../src/core/inject/literal-keys.js';
import { compileGlob } from '../../src/core/match/glob.js';
import { requiredGlobLiterals } from '../../src/core/match/glob-literal.js';

const AND = '\u0001';

function satisfied(table: Record<string, string>, texts: LiteralTexts): string[] {
  const out: string[] = [];
  satisfiedKeys(packLiteralTable(new Map(Object.entries(table))), texts, (postings) => out.push(postings));
  return out.sort();
}

describe('toolScope', () => {
  it.each([
    [[], '*'],
    [['Bash'], 'bash'],
    [['Write', 'Edit', 'MultiEdit'], 'edit,write'],
    [['Task'], 'agent'],
    [['Edit', 'mcp__fs__*'], '*'],
  ])('%j -> %s', (tools, scope) => expect(toolScope(tools)).toBe(scope));
});

describe('expandClauses', () => {
  it.each([
    [[['a1']], [['a1']]],
    [
      [['terraform'], ['apply', 'destroy']],
      [
        ['apply', 'terraform'],
        ['destroy', 'terraform'],
      ],
    ],
    // 2 x 3 x 3 = 18 conjunctions: over 16, the last clause goes
    [
      [
        ['aa', 'bb'],
        ['cc', 'dd', 'ee'],
        ['ff', 'gg', 'hh'],
      ],
      [
        ['aa', 'cc'],
        ['aa', 'dd'],
        ['aa', 'ee'],
        ['bb', 'cc'],
        ['bb', 'dd'],
        ['bb', 'ee'],
      ],
    ],
    [[], []],
  ])('%j', (clauses, expected) => expect(expandClauses(clauses)).toEqual(expected));

  it('a single clause wider than the cap files nothing (the lesson is checked always)', () => {
    expect(expandClauses([Array.from({ length: 20 }, (_, i) => `w${i}`)])).toEqual([]);
  });
});

describe('satisfiedKeys', () => {
  const table = {
    [`bash|capply${AND}terraform`]: 'tf-apply',
    'bash|cpytest': 'pytest',
    [`bash|c\u0002npm${AND}i`]: 'npm-i',
    '*|p.tf': 'tf-path',
    [`edit,write|p.ts${AND}src`]: 'src-ts',
    '*|cdocker': 'docker-any-tool',
  };
  it.each([
    [
      '^npm: npm first',
      { command: 'npm i -D x\n', paths: '', tool: 'bash', toolCall: true, anchored: true },
      ['npm-i'],
    ],
    [
      '^npm: npm later',
      { command: 'cd a && npm i\n', paths: '', tool: 'bash', toolCall: true, anchored: true },
      [],
    ],
    ['^npm in a prompt', { command: 'then `npm i`', paths: '', toolCall: false }, ['npm-i']],
    [
      'terraform plan',
      { command: 'terraform plan -out plan.tfplan', paths: '', tool: 'bash', toolCall: true },
      [],
    ],
    [
      'terraform apply',
      { command: 'terraform apply plan.tfplan', paths: '', tool: 'bash', toolCall: true },
      ['tf-apply'],
    ],
    ['pytest from Edit', { command: '', paths: 'pytest.ini', tool: 'edit', toolCall: true }, []],
    ['edit src ts', { command: '', paths: 'src/app.ts', tool: 'edit', toolCall: true }, ['src-ts']],
    ['read src ts', { command: '', paths: 'src/app.ts', tool: 'read', toolCall: true }, []],
    ['edit main.tf', { command: '', paths: 'infra/main.tf', tool: 'edit', toolCall: true }, ['tf-path']],
    [
      'a command never satisfies path keys',
      { command: 'cat src/app.ts main.tf', paths: '', tool: 'bash', toolCall: true },
      [],
    ],
    [
      'no tool name: only * scopes',
      { command: 'docker ps; pytest', paths: '', toolCall: true },
      ['docker-any-tool'],
    ],
    [
      'a prompt: every scope, both domains',
      { command: 'run pytest then docker', paths: 'run pytest then docker\nsrc/x.ts', toolCall: false },
      ['docker-any-tool', 'pytest', 'src-ts'],
    ],
  ])('%s', (_, texts, expected) => expect(satisfied(table, texts as LiteralTexts)).toEqual(expected));
});

describe('the packed table', () => {
  it('unpacks to what was packed', () => {
    const key = fc
      .tuple(
        fc.constantFrom('*', 'bash', 'edit,write'),
        fc.constantFrom('c', 'p'),
        fc.array(
          fc.string({ minLength: 1, maxLength: 6 }).filter((l) => !reservedIn(l)),
          {
            minLength: 1,
            maxLength: 3,
          },
        ),
      )
      .map(([scope, domain, literals]) => `${scope}|${domain}${literals.join(AND)}`);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(key, fc.stringMatching(/^[0-9a-z]+(,[0-9a-z]+)*$/)), {
          selector: (e) => e[0],
        }),
        (entries) => {
          const map = new Map(entries);
          expect(unpackLiteralTable(packLiteralTable(map))).toEqual(map);
        },
      ),
    );
  });

  it('a literal may hold a pipe', () => {
    const { literals } = lessonKeys({
      commands: ['\\|\\s*xargs'],
      paths: [],
      tags: [],
      tools: ['Bash'],
    });
    expect(literals).toEqual([`bash|cxargs${AND}|`]);
    expect(
      satisfied(Object.fromEntries(literals.map((key) => [key, 'hit'])), {
        command: 'grep x | xargs rm -f',
        paths: '',
        tool: 'bash',
        toolCall: true,
      }),
    ).toEqual(['hit']);
  });

  it('a literal holding a separator files its lesson as always checked', () => {
    expect(lessonKeys({ commands: ['foo\\x04bar'], paths: [], tags: [], tools: [] })).toEqual({
      literals: [],
      keys: [],
      always: true,
    });
  });
});

describe('requiredGlobLiterals', () => {
  it.each([
    ['src/**/*.ts', ['.ts', 'src']],
    ['*.py', ['.py']],
    ['.terraform.lock.hcl', ['.terraform.lock.hcl']],
    ['./a/bb/ccc', ['ccc', 'bb']],
    ['{a,b}/*.ts', []],
    ['**', []],
  ])('%s -> %j', (glob, literals) => expect(requiredGlobLiterals(glob)).toEqual(literals));

  it('every path a glob matches contains each of its literals', () => {
    const segment = fc.constantFrom('src', 'a', 'tests', '*', '**', '*.ts', 'x.py', '.github', 'b?', 'lib');
    const glob = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));
    const path = fc
      .array(fc.constantFrom('src', 'a', 'tests', 'x.ts', 'x.py', '.github', 'bb', 'b1', 'lib', 'y'), {
        minLength: 1,
        maxLength: 5,
      })
      .map((parts) => parts.join('/'));
    fc.assert(
      fc.property(glob, path, (g, p) => {
        fc.pre(new RegExp(compileGlob(g)).test(p));
        for (const literal of requiredGlobLiterals(g, 1, 8)) expect(p).toContain(literal);
      }),
      { numRuns: 3000 },
    );
  });
});

describe('lessonKeys with satisfiedKeys', () => {
  it('a lesson whose command regex matches a Bash call is always a candidate for it', () => {
    const word = fc.constantFrom('git', 'stash', 'push', 'rm', '-rf', 'terraform', 'apply', 'npm', 'ci');
    const part = fc.oneof(word, fc.constantFrom('\\s+', '\\b', '(?:push|save)', '.*', '\\S+', '^'));
    const source = fc
      .tuple(fc.constantFrom('', '^', '^\\s*'), fc.array(part, { minLength: 1, maxLength: 5 }))
      .map(([start, parts]) => start + parts.join(''));
    const command = fc.array(word, { minLength: 1, maxLength: 6 }).map((words) => words.join(' '));
    fc.assert(
      fc.property(source, command, (regex, text) => {
        fc.pre(new RegExp(regex).test(text));
        const { literals, always } = lessonKeys({ commands: [regex], paths: [], tags: [], tools: ['Bash'] });
        if (always) return;
        const table = Object.fromEntries(literals.map((key) => [key, 'hit']));
        const texts = { command: `${text}\n`, paths: '', tool: 'bash', toolCall: true, anchored: true };
        expect(satisfied(table, texts)).toContain('hit');
        // and in a prompt that quotes the command
        const prompt = `please run \`${text}\``;
        expect(satisfied(table, { command: prompt, paths: prompt, toolCall: false })).toContain('hit');
      }),
      { numRuns: 2000 },
    );
  });
});
