/**
 * The freshness scan's aggregate (scan-tiers.ts, lite-aggregate.ts): an order-independent sum of
 * per-file hashes over (name, kind, stamps), so nothing is sorted and no string is built per file;
 * equal aggregate, nothing changed. A name hashes the same given as a string or as its bytes, when
 * it is ASCII (each byte is then its char code): lite-aggregate.ts reads names as bytes.
 */
const mix = (h: number, value: number) => Math.imul(h ^ (value >>> 0), 0x01000193);
const mix2 = (h: number, value: number) => {
  const m = Math.imul(h ^ (value >>> 0), 0x5bd1e995);
  return m ^ (m >>> 13);
};

export type Aggregate = {
  /**
   * One file: its lesson directory's name, its kind, and its stamps (µs mtime, size, inode: see
   * file-signature.ts) at `stamps[at..at+3]`.
   */
  add(name: string, kind: number, stamps: Float64Array, at: number): void;
  /** The same, the name being the ASCII bytes `bytes[start..end)`. */
  addBytes(
    bytes: Uint8Array,
    start: number,
    end: number,
    kind: number,
    stamps: Float64Array,
    at: number,
  ): void;
  value(): string;
};

export function createAggregate(): Aggregate {
  let sumA = 0;
  let sumB = 0;
  let count = 0;
  const finish = (a0: number, b0: number, stamps: Float64Array, at: number) => {
    const micros = stamps[at] as number;
    const size = stamps[at + 1] as number;
    const ino = stamps[at + 2] as number;
    const a = mix(mix(mix(mix(a0, micros % 0x100000000), micros / 0x100000000), size), ino);
    const b = mix2(mix2(mix2(mix2(b0, micros % 0x100000000), micros / 0x100000000), size), ino);
    sumA = (sumA + (a >>> 0)) % 0x100000000;
    sumB = (sumB + (b >>> 0)) % 0x100000000;
    count += 1;
  };
  return {
    add(name, kind, stamps, at) {
      let a = 0x811c9dc5 ^ kind;
      let b = 0x01000193 ^ kind;
      for (let i = 0; i < name.length; i += 1) {
        const c = name.charCodeAt(i);
        a = Math.imul(a ^ c, 0x01000193);
        b = Math.imul(b ^ c, 0x5bd1e995);
      }
      finish(a, b, stamps, at);
    },
    addBytes(bytes, start, end, kind, stamps, at) {
      let a = 0x811c9dc5 ^ kind;
      let b = 0x01000193 ^ kind;
      for (let i = start; i < end; i += 1) {
        const c = bytes[i] as number;
        a = Math.imul(a ^ c, 0x01000193);
        b = Math.imul(b ^ c, 0x5bd1e995);
      }
      finish(a, b, stamps, at);
    },
    value: () => `${sumA.toString(16)}${sumB.toString(16)}:${count}`,
  };
}
