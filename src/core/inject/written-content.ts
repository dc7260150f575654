/**
 * The text a file-writing tool call would write, which lessons' `contents` patterns are tested
 * against: Write's `content`, Edit's `new_string`, MultiEdit's `edits[].new_string`, NotebookEdit's
 * `new_source` (Codex patches and Gemini's write_file/replace arrive renamed to Write/Edit with the
 * same keys). Cut to `CONTENT_LIMIT` characters: a pattern never runs over megabytes of a generated
 * file, so the hook's time stays bounded whatever the agent writes.
 */

/** Content patterns see at most this many characters of the written text (the first 64 KB). */
export const CONTENT_LIMIT = 65_536;

const WRITING_TOOLS = new Set(['write', 'edit', 'multiedit', 'notebookedit']);

/** Whether a tool (Claude Code's name, any case) writes files, so `contents` patterns apply to it. */
export function writesFiles(tool: string | undefined): boolean {
  return tool !== undefined && WRITING_TOOLS.has(tool.toLowerCase());
}

/** The written text of a tool call's input, capped; undefined when the call writes no text. */
export function writtenContent(tool: string, input: Record<string, unknown>): string | undefined {
  if (!writesFiles(tool)) return undefined;
  const parts: string[] = [];
  let size = 0;
  const add = (value: unknown) => {
    if (typeof value !== 'string' || value === '' || size >= CONTENT_LIMIT) return;
    const piece = value.slice(0, CONTENT_LIMIT - size);
    parts.push(piece);
    size += piece.length + 1;
  };
  add(input.content);
  add(input.new_string);
  add(input.new_source);
  if (Array.isArray(input.edits)) {
    for (const edit of input.edits.slice(0, 1000)) {
      if (edit !== null && typeof edit === 'object') add((edit as Record<string, unknown>).new_string);
    }
  }
  return parts.length === 0 ? undefined : parts.join('\n');
}
