/**
 * Character classes as tests on character codes, for the hook's checks of names and ids: a regex
 * is compiled on its first use in each process (and a second time, to machine code, when it runs
 * again), which costs the hook, a fresh process per call, tens of microseconds a regex, more than
 * the test itself. Each says which regex class it stands for.
 */

/** `[a-z0-9]`. */
export function isLowerAlnum(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57);
}

/** `[A-Za-z0-9]`. */
export function isAlnum(c: number): boolean {
  return isLowerAlnum(c) || (c >= 65 && c <= 90);
}

/** `[A-Za-z]`. */
export function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** `\w` (without the `u` flag): `[A-Za-z0-9_]`. */
export function isWordChar(c: number): boolean {
  return isAlnum(c) || c === 95;
}

/** `\s`: JavaScript's white space and line terminators (what `trim` removes, too). */
export function isSpace(c: number): boolean {
  return (
    (c >= 9 && c <= 13) ||
    c === 32 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** Whether every character of `text[from, to)` passes `test` (true when the range is empty). */
export function everyChar(text: string, test: (c: number) => boolean, from = 0, to = text.length): boolean {
  for (let i = from; i < to; i += 1) if (!test(text.charCodeAt(i))) return false;
  return true;
}
