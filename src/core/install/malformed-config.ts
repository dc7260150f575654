/**
 * The error every installer gives for an agent's settings file it cannot read: the file and line,
 * and that nothing was changed.
 */
import { LoreError } from '../errors.js';

export function malformedConfig(file: string, line: number | undefined, message: string): LoreError {
  return new LoreError('invalid', `${file}${line === undefined ? '' : `:${line}`}: ${message}`, {
    hint: 'lore changed nothing; fix the file (or move it aside) and run the command again',
    details: { file, line: line ?? null },
  });
}
