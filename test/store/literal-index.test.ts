/**
 * The literal index files the hook probes: for any keys and any call, exactly the postings a full
 * scan of the keys (`satisfiedKeys`, what `lore explain` runs) finds; a domain's file is read
 * only when the call has text of that domain; a corrupt file is refused, never misread.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it, onTestFinished } from 'vitest';
import { MANIFEST_VERSION } from '../../src/core/inject/types.js';
import { readManifestHead } from '../../src/store/hook-state/manifest-files.js';
import { lessonKeys } from '../../src/core/manifest/build-manifest.js';
import { GRAM, chooseGrams } from '../../src/core/inject/literal-grams.js';
import { packLiteralTable, satisfiedKeys } from '../../src/core/inject/literal-keys.js';
import type { LiteralDomain, LiteralTable, LiteralTexts } from '../../src/core/inject/literal-keys.js';
import {
  decodeLiteralIndex,
  encodeLiteralIndex,
  indexLookup,
  LiteralIndexError,
  openLiteralIndex,
} from '../../src/store/hook-state/literal-index.js';

const AND = '\u0001';
const ANCHOR = '\u0002';

function scan(table: LiteralTable, texts: LiteralTexts): string[] {
  const out: string[] = [];
  satisfiedKeys(table, texts, (postings) => out.push(postings));
  return out.sort();
}

function probe(table: LiteralTable, texts: LiteralTexts, reads: LiteralDomain[] = []): string[] {
  const files = { c: encodeLiteralIndex(table, 'c'), p: encodeLiteralIndex(table, 'p') };
  const out: string[] = [];
  indexLookup((domain) => {
    reads.push(domain);
    return files[domain];
  })(texts, (postings) => out.push(postings));
  return out.sort();
}

// Literals from a small alphabet, so that they overlap, share prefixes and occur in the texts.
const literal = fc
  .array(fc.constantFrom('a', 'b', 'c', '-', '/', '.', 'é', '_', '1', ' '), { minLength: 1, maxLength: 7 })
  .map((chars) => chars.join(''));
const anchoredLiteral = fc.tuple(fc.boolean(), literal).map(([opens, l]) => (opens ? `${ANCHOR}${l}` : l));
const scope = fc.constantFrom('*', 'bash', 'edit', 'edit,write', 'read', 'agent,bash');
const key = fc
  .tuple(scope, fc.constantFrom('c', 'p'), fc.uniqueArray(anchoredLiteral, { minLength: 1, maxLength: 3 }))
  .map(([s, domain, literals]) => `${s}|${domain}${literals.join(AND)}`);
const table = fc
  .uniqueArray(key, { maxLength: 60 })
  .map((keys) => packLiteralTable(new Map(keys.map((k, i) => [k, i.toString(36)]))));
const haystack = fc
  .array(fc.oneof(literal, fc.constantFrom('\n', 'abc', 'a/b.c', ' -', 'x')), { maxLength: 12 })
  .map((parts) => parts.join(''));
const texts: fc.Arbitrary<LiteralTexts> = fc.oneof(
  // a shell call: its command, no paths
  fc
    .tuple(haystack, fc.constantFrom('bash', 'agent', undefined))
    .map(([command, tool]) => ({ command: `${command}\n`, paths: '', tool, toolCall: true, anchored: true })),
  // a file tool: paths, no command
  fc
    .tuple(fc.array(haystack, { maxLength: 3 }), fc.constantFrom('edit', 'write', 'read', undefined))
    .map(([paths, tool]) => ({ command: '', paths: paths.join('\n'), tool, toolCall: true })),
  // a prompt: the same text for both, every scope
  haystack.map((prompt) => ({ command: prompt, paths: prompt, toolCall: false })),
);

describe('the literal index finds what a full scan finds', () => {
  it('for any keys and any call (property)', () => {
    fc.assert(
      fc.property(table, texts, (t, x) => {
        expect(probe(t, x)).toEqual(scan(t, x));
      }),
      { numRuns: 3000 },
    );
  });

  it('for keys filed from real triggers, on calls that contain them (property)', () => {
    const program = fc.constantFrom('git', 'go', 'rg', 'npm', 'gitleaks', 'terraform', 'kubectl', 'uv');
    const sub = fc.constantFrom('push', 'test', 'apply', 'detect', 'run', 'i');
    const trigger = fc
      .tuple(fc.constantFrom('', '^', '(^|[;&|(]\\s*|\\s|[\\\\/])'), program, fc.option(sub))
      .map(
        ([start, p, s]) =>
          `${start}${p}(?:\\.exe)?${s === null ? '' : `\\s+(?:\\S+\\s+)*?${s}`}(?=[\\s"';&|)]|$)`,
      );
    const glob = fc
      .tuple(
        fc.constantFrom('src', 'tests', '**'),
        fc.constantFrom('api', 'billing', '**'),
        fc.constantFrom('handler_12.py', 'handler_13.py', '*.ts', 'go.mod', 'a.c'),
      )
      .map((parts) => parts.join('/'));
    const lesson = fc.record({
      commands: fc.array(trigger, { maxLength: 2 }),
      paths: fc.array(glob, { maxLength: 2 }),
      tools: fc.constantFrom([], ['Bash'], ['Edit', 'Write'], ['Read']),
    });
    const call = fc.oneof(
      fc
        .array(fc.oneof(program, sub, fc.constantFrom('&&', '-x', 'C:\\bin\\git.exe', ';')), { maxLength: 6 })
        .map((words) => ({
          command: `${words.join(' ')}\n`,
          paths: '',
          tool: 'bash',
          toolCall: true,
          anchored: true,
        })),
      fc
        .tuple(
          fc.constantFrom('src/api/handler_12.py', 'tests/a.c', 'go.mod', 'src/x.ts'),
          fc.constantFrom('edit', 'read'),
        )
        .map(([path, tool]) => ({ command: '', paths: path, tool, toolCall: true })),
    );
    fc.assert(
      fc.property(fc.array(lesson, { maxLength: 30 }), call, (lessons, x) => {
        const keys = new Map<string, string>();
        lessons.forEach((l, n) => {
          for (const k of lessonKeys({ ...l, tools: [...l.tools], tags: [] }).literals)
            keys.set(k, `${keys.get(k) ?? ''}${n},`);
        });
        const t = packLiteralTable(keys);
        expect(probe(t, x)).toEqual(scan(t, x));
      }),
      { numRuns: 1000 },
    );
  });

  it.each([
    ['^npm: npm first', { command: 'npm i -D x\n', paths: '', tool: 'bash', toolCall: true, anchored: true }],
    [
      '^npm: npm later',
      { command: 'cd a && npm i\n', paths: '', tool: 'bash', toolCall: true, anchored: true },
    ],
    ['^npm in a prompt', { command: 'then `npm i`', paths: '', toolCall: false }],
    ['terraform apply', { command: 'terraform apply x', paths: '', tool: 'bash', toolCall: true }],
    ['edit src ts', { command: '', paths: 'src/app.ts', tool: 'edit', toolCall: true }],
    ['read src ts', { command: '', paths: 'src/app.ts', tool: 'read', toolCall: true }],
    ['no tool name', { command: 'docker ps; pytest', paths: '', toolCall: true }],
    [
      'a prompt',
      { command: 'run pytest then docker go', paths: 'run pytest then docker\nsrc/x.ts', toolCall: false },
    ],
  ])('%s', (_name, x) => {
    const t = packLiteralTable(
      new Map([
        [`bash|capply${AND}terraform`, 'tf-apply'],
        ['bash|cpytest', 'pytest'],
        [`bash|c${ANCHOR}npm${AND}i`, 'npm-i'],
        ['*|p.tf', 'tf-path'],
        [`edit,write|p.ts${AND}src`, 'src-ts'],
        ['*|cdocker', 'docker-any-tool'],
        ['*|cgo', 'go'],
      ]),
    );
    expect(probe(t, x as LiteralTexts)).toEqual(scan(t, x as LiteralTexts));
  });
});

describe('reading', () => {
  const t = packLiteralTable(
    new Map([
      ['bash|cpytest', '1'],
      ['edit|psrc', '2'],
    ]),
  );

  it.each<[string, LiteralTexts, LiteralDomain[]]>([
    [
      'a Bash call reads the command file alone',
      { command: 'pytest\n', paths: '', tool: 'bash', toolCall: true },
      ['c'],
    ],
    [
      'an Edit reads the path file alone',
      { command: '', paths: 'src/a', tool: 'edit', toolCall: true },
      ['p'],
    ],
    ['a prompt reads both', { command: 'pytest src', paths: 'pytest src', toolCall: false }, ['c', 'p']],
    ['a call with no text reads nothing', { command: '', paths: '', tool: 'read', toolCall: true }, []],
  ])('%s', (_name, x, expected) => {
    const reads: LiteralDomain[] = [];
    probe(t, x, reads);
    expect(reads).toEqual(expected);
  });

  it('a domain without keys has no file', () => {
    expect(encodeLiteralIndex(packLiteralTable(new Map([['bash|cx1', '1']])), 'p')).toBeUndefined();
  });

  it('decodes to the keys it was built from (property)', () => {
    fc.assert(
      fc.property(table, (tbl) => {
        const entries = (['c', 'p'] as const).flatMap((domain) => {
          const bytes = encodeLiteralIndex(tbl, domain);
          return bytes === undefined ? [] : decodeLiteralIndex(openLiteralIndex(bytes, domain));
        });
        const keys = new Map(entries.map((e) => [`${e.scope}|${e.domain}${e.part}`, e.postings]));
        expect(packLiteralTable(keys)).toEqual(tbl);
      }),
      { numRuns: 300 },
    );
  });

  it('builds the same bytes from the same keys', () => {
    expect(encodeLiteralIndex(t, 'c')?.equals(encodeLiteralIndex(t, 'c') as Buffer)).toBe(true);
  });
});

describe('grams', () => {
  it('a key is filed under the rarest run of its literals', () => {
    expect(chooseGrams(['handler_12.py', 'handler_13.py', `go${AND}test`, 'go'])).toEqual([
      '12.',
      '13.',
      'est',
      'go',
    ]);
    expect(GRAM).toBe(3);
  });
});

describe('a corrupt file is refused', () => {
  const good = encodeLiteralIndex(
    packLiteralTable(
      new Map([
        ['bash|cpytest', '1'],
        ['*|cgit', '2'],
      ]),
    ),
    'c',
  ) as Buffer;
  it.each<[string, () => Buffer]>([
    ['empty', () => Buffer.alloc(0)],
    ['cut short', () => good.subarray(0, good.length - 3)],
    ['another format', () => Buffer.from(`LPK1${good.subarray(4).toString('latin1')}`, 'latin1')],
    [
      'a bad bucket count',
      () => Buffer.concat([good.subarray(0, 8), Buffer.from([3, 0, 0, 0]), good.subarray(12)]),
    ],
    ['JSON', () => Buffer.from('{"c":[]}')],
  ])('%s', (_name, bytes) => {
    expect(() => openLiteralIndex(bytes(), 'c')).toThrow(LiteralIndexError);
  });

  it('missing: the lookup throws (the hook then answers {} and asks for a rebuild)', () => {
    const lookup = indexLookup(() => {
      throw Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' });
    });
    expect(() =>
      lookup({ command: 'pytest\n', paths: '', tool: 'bash', toolCall: true }, () => undefined),
    ).toThrow(/ENOENT/);
  });
});

describe('the head names its index files', () => {
  it.each([
    [{ c: 'literals-c.lix', p: 'literals-p-m1x2abcd.lix' }, true],
    [{}, true],
    [{ c: 'literals-p.lix' }, false],
    [{ c: '../literals-c.lix' }, false],
    [{ c: 'literals-c.lix/../../x' }, false],
    [{ x: 'literals-c.lix' }, false],
    [undefined, false],
  ])('%j: read %s', (index, valid) => {
    const cache = mkdtempSync(join(tmpdir(), 'lore-head-'));
    onTestFinished(() => rmSync(cache, { recursive: true, force: true }));
    mkdirSync(join(cache, 'manifest'));
    const head = { version: MANIFEST_VERSION, generation: 'g1', sources: [], index };
    writeFileSync(join(cache, 'manifest', 'head.json'), JSON.stringify(head));
    expect(readManifestHead(cache) !== undefined).toBe(valid);
  });
});
