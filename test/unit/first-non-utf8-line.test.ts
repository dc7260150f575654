// firstNonUtf8Line (src/store/interop/read-sources.ts): the line lore names when an import source
// is not UTF-8.
import { describe, expect, it } from 'vitest';
import { firstNonUtf8Line } from '../../src/store/interop/read-sources.js';

describe('firstNonUtf8Line', () => {
  it.each([
    { name: 'ASCII', bytes: Buffer.from('a\nb\n'), line: undefined },
    { name: 'UTF-8 letters', bytes: Buffer.from('caf\u00e9\n\u65e5\u672c\n'), line: undefined },
    { name: 'Latin-1 on line 1', bytes: Buffer.from('caf\xe9\nok\n', 'latin1'), line: 1 },
    { name: 'Latin-1 on line 3', bytes: Buffer.from('a\r\nb\r\nd\xe9p\xf4t\r\n', 'latin1'), line: 3 },
    { name: 'a character cut off at the end', bytes: Buffer.from([0x61, 0x0a, 0xe6, 0x97]), line: 2 },
  ])('$name', ({ bytes, line }) => {
    expect(firstNonUtf8Line(bytes)).toBe(line);
  });
});
