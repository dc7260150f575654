/**
 * Errors and problems: the two ways lore reports trouble.
 *
 * - A `Problem` is bad data found while reading (a broken lesson file, an unknown field). It is a
 *   value: the reader keeps going and every other lesson still loads.
 * - A `LoreError` is a failure the caller must act on (unknown id, ambiguous prefix, bad flag).
 *   Each surface maps it once: exit codes in the CLI, `isError` in MCP, HTTP status in the API.
 */

export type Severity = 'error' | 'warning';

export type Problem = {
  /** Path of the file, as shown to the user (repo-relative when inside the project). */
  file: string;
  /** 1-based line, when known. */
  line?: number;
  /** Dotted field path inside the record (`commands.0`, `summary`), when known. */
  field?: string;
  message: string;
  severity: Severity;
};

export const ERROR_CODES = [
  'usage',
  'not-found',
  'ambiguous',
  'invalid',
  'conflict',
  'no-project',
  'legacy-layout',
  'locked',
  'io',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export class LoreError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  readonly details: unknown;

  constructor(code: ErrorCode, message: string, options: { hint?: string; details?: unknown } = {}) {
    super(message);
    this.name = 'LoreError';
    this.code = code;
    this.hint = options.hint;
    this.details = options.details;
  }
}

export function isLoreError(value: unknown): value is LoreError {
  return value instanceof LoreError;
}

/** Formats a problem the way compilers do, so editors and terminals can jump to it. */
export function formatProblem(problem: Problem): string {
  const where = problem.line === undefined ? problem.file : `${problem.file}:${problem.line}`;
  const field = problem.field === undefined ? '' : ` (${problem.field})`;
  return `${where}: ${problem.severity}${field}: ${problem.message}`;
}
