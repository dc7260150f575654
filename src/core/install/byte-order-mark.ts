/**
 * A UTF-8 byte order mark at the start of a settings file (Windows editors write one; VS Code
 * keeps it). JSON.parse refuses it, and a planner that failed on it ended `lore install` with an
 * internal error naming no file. The planners read the JSON after it and write it back in front.
 */

const BOM = '\uFEFF';

/**
 * Runs a planner on the text without its byte order mark and puts the mark back in front of the
 * text it plans, so the file keeps it (an unchanged plan gives back the text as it was).
 */
export function keepingByteOrderMark<P extends { text: string }>(
  text: string | undefined,
  plan: (body: string | undefined) => P,
): P {
  if (text === undefined || !text.startsWith(BOM)) return plan(text);
  const result = plan(text.slice(BOM.length));
  return { ...result, text: `${BOM}${result.text}` };
}
