// What an export may write: only inside --out (an id from a source never becomes a path out of it)
// and only over files lore holds (export-ledger.ts). Pure functions and the real formats, no I/O
// beyond the temporary folder of the ledger test.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { isSafeSourceId } from '../../src/core/interop/imported-lesson.js';
import { findInteropFormat } from '../../src/core/interop/interop-formats.js';
import type { ExportLesson } from '../../src/core/interop/interop-format.js';
import {
  contentDigest,
  guardOverwrites,
  overwriteRefusal,
  readExportLedger,
} from '../../src/store/interop/export-ledger.js';
import { planDirectoryWrites } from '../../src/store/interop/write-export.js';

const NOW = '2026-11-23T12:00:00.000Z';

describe('isSafeSourceId: one file name, nothing that walks out of a folder', () => {
  it.each([
    ['L-0001', true],
    ['use-ci-1-pytest', true],
    ['learn_a1b2c3', true],
    ['.hidden-rule', true],
    ['règle', true],
    ['', false],
    ['.', false],
    ['..', false],
    ['../../../../escaped-orbit', false],
    ['a/b', false],
    ['a\\b', false],
    ['/etc/passwd', false],
    ['tab\there', false],
    ['nul\u0000', false],
    ['x'.repeat(256), false],
  ])('%j: %s', (id, safe) => {
    expect(isSafeSourceId(id)).toBe(safe);
  });
});

const orbitFile = (id: string) => ({
  path: 'learnings/L-0001/learning.yaml',
  text: `id: ${id}\nschemaVersion: 1\nstatus: active\nsummary: a learning\nbody: b\ncreated_at: 2026-01-01T00:00:00Z\nupdated_at: 2026-01-01T00:00:00Z\n`,
});

describe('an import refuses a source id that is not a file name', () => {
  it('reports the Orbit entry with its id and skips it whole', () => {
    const parsed = findInteropFormat('orbit').parse([orbitFile('../../../../escaped-orbit')], {
      nowIso: NOW,
    });
    expect(parsed.lessons).toEqual([]);
    expect(parsed.problems).toEqual([
      expect.objectContaining({
        file: 'learnings/L-0001/learning.yaml',
        severity: 'error',
        message: expect.stringContaining('"../../../../escaped-orbit" cannot be a file name'),
      }),
    ]);
  });

  it('imports the same entry with a plain id', () => {
    expect(findInteropFormat('orbit').parse([orbitFile('L-0001')], { nowIso: NOW }).lessons).toHaveLength(1);
  });
});

describe('an export never names a file after an unsafe id a lesson already carries', () => {
  const lesson = (format: string, id: string): ExportLesson =>
    ({
      ...findInteropFormat('orbit').parse([orbitFile('L-0009')], { nowIso: NOW }).lessons[0]?.lesson,
      id: 'abcdefghjk',
      slug: 'from-a-teammate',
      origin: { format, id },
      votes: [],
    }) as ExportLesson;

  it.each([
    ['orbit', 'learnings/L-0001/learning.yaml'],
    ['cursor', 'from-a-teammate.mdc'],
  ])('%s: a fresh name inside the folder', (format, path) => {
    const rendered = findInteropFormat(format as 'orbit' | 'cursor').render(
      [lesson(format, '../../../escaped')],
      {
        nowIso: NOW,
        projectName: 'p',
      },
    );
    expect(rendered.files.map((file) => file.path)).toEqual([path]);
  });

  it('planDirectoryWrites refuses a rendered path that leaves --out, whatever its source', () => {
    const out = { path: '/tmp/out', shown: 'out' };
    const rendered = (path: string) => ({ files: [{ path, text: 'x' }], skipped: [] });
    expect(planDirectoryWrites('cursor', rendered('rule.mdc'), out)).toEqual([
      { path: '/tmp/out/rule.mdc', text: 'x', shown: 'out/rule.mdc' },
    ]);
    for (const bad of ['../escaped.mdc', 'a/../../escaped.mdc', '/etc/escaped.mdc', '.'])
      expect(() => planDirectoryWrites('cursor', rendered(bad), out)).toThrow(
        /refusing to write .* outside out/,
      );
  });
});

describe('overwriteRefusal: replace only what lore holds', () => {
  const next = { path: '/x/f', text: 'new', shown: 'f' };
  it.each([
    { why: 'no file there', current: undefined, recorded: undefined, refused: undefined },
    { why: 'already the same', current: 'new', recorded: undefined, refused: undefined },
    { why: 'what lore last wrote', current: 'old', recorded: contentDigest('old'), refused: undefined },
    { why: 'never written by lore', current: 'theirs', recorded: undefined, refused: 'not written by lore' },
    {
      why: 'edited since lore wrote it',
      current: 'edited',
      recorded: contentDigest('old'),
      refused: 'changed since lore wrote it',
    },
  ])('$why', ({ current, recorded, refused }) => {
    expect(overwriteRefusal(current, next, recorded)?.reason).toBe(refused);
  });

  it('guardOverwrites names every refused file and writes nothing; force lets them through', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lore-export-guard-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(join(dir, 'a.json'), 'theirs');
    writeFileSync(join(dir, 'b.json'), 'lore wrote this');
    const ledger = readExportLedger(join(dir, 'missing-ledger.json'));
    ledger.files[join(dir, 'b.json')] = contentDigest('lore wrote this');
    const writes = ['a.json', 'b.json', 'c.json'].map((name) => ({
      path: join(dir, name),
      text: 'new',
      shown: name,
    }));
    expect(() => guardOverwrites(writes, ledger, { force: false })).toThrow(
      /would overwrite 1 file\(s\) it did not write, and wrote nothing:\n {2}a\.json \(not written by lore\)$/,
    );
    expect(() => guardOverwrites(writes, ledger, { force: true })).not.toThrow();
  });
});
