/**
 * Reading a text file lore owns (a lesson file) as UTF-8, refusing one that is not: a Latin-1 `é`
 * saved by an editor would otherwise become U+FFFD on read, and the next write of the lesson would
 * save the replacement for good. The file is reported at the line of its first byte that is not
 * UTF-8 and left as it is, for the user to save as UTF-8. Node built-ins only.
 */
import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';

/** A file that is not UTF-8 text: `line` holds its first byte that is not. */
export class NotUtf8Error extends Error {
  readonly code = 'ENOTUTF8';
  constructor(
    readonly path: string,
    readonly line: number,
  ) {
    super(
      `line ${line} holds a byte that is not UTF-8: save the file as UTF-8; lore leaves it unread until then`,
    );
    this.name = 'NotUtf8Error';
  }
}

/** The 1-based line holding the first byte that is not UTF-8, or undefined when all of it is. */
export function firstNonUtf8Line(bytes: Uint8Array): number | undefined {
  if (isUtf8(bytes)) return undefined;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  // a line break byte is never part of a multi-byte character: each line decodes alone
  let start = 0;
  for (let line = 1; ; line += 1) {
    const end = bytes.indexOf(0x0a, start);
    try {
      decoder.decode(bytes.subarray(start, end < 0 ? bytes.length : end));
    } catch {
      return line;
    }
    if (end < 0) return line;
    start = end + 1;
  }
}

/**
 * The text of a file saved as UTF-16 with its byte order mark, or undefined: Windows PowerShell
 * writes UTF-16LE for `>` and `Out-File`, so an export redirected there arrives that way. Read as
 * UTF-8 it would be refused at its first line; its mark says how to read it instead (the mark
 * itself is left out). For files lore reads in (imports), not for the lesson files it owns.
 */
export function utf16Text(bytes: Uint8Array): string | undefined {
  const little = bytes[0] === 0xff && bytes[1] === 0xfe;
  if (!little && !(bytes[0] === 0xfe && bytes[1] === 0xff)) return undefined;
  try {
    return new TextDecoder(little ? 'utf-16le' : 'utf-16be', { fatal: true }).decode(bytes.subarray(2));
  } catch {
    return undefined; // an odd byte count, an unpaired surrogate: not UTF-16 after all
  }
}

/** The file's text; throws NotUtf8Error when it is not UTF-8 (and what readFileSync throws). */
export function readUtf8File(path: string): string {
  const bytes = readFileSync(path);
  const line = firstNonUtf8Line(bytes);
  if (line !== undefined) throw new NotUtf8Error(path, line);
  return bytes.toString('utf8');
}
