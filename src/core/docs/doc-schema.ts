/**
 * The frontmatter of a project doc, closed at six fields, in zod (the record types are in
 * doc-record.ts, which loads without zod for the read commands' fast path).
 */
import { z } from 'zod';

import { invisibleCharacter } from '../lesson/constants.js';
import { DOC_TYPES } from './doc-record.js';

export { DOC_FIELDS, DOC_SOURCES, DOC_TYPES } from './doc-record.js';
export type { DocField, DocRecord, DocSource, DocType } from './doc-record.js';

const oneLine = z
  .string()
  .trim()
  .min(1, 'must be a non-empty line')
  .refine((value) => !/[\r\n]/.test(value), 'must be one line')
  .superRefine((value, ctx) => {
    // as in a lesson's summary: an escape sequence would reach terminals and agents as it is
    const code = invisibleCharacter(value);
    if (code !== undefined)
      ctx.addIssue({ code: 'custom', message: `must not hold an invisible control character (${code})` });
  });
const nameList = z.array(z.string().trim().min(1, 'entries must be non-empty strings'));

export const DocFrontmatterSchema = z.strictObject({
  type: z.enum(DOC_TYPES),
  summary: oneLine,
  tags: nameList.optional(),
  paths: nameList.optional(),
  related_features: nameList.optional(),
  related_artifacts: nameList.optional(),
});
export type DocFrontmatter = z.infer<typeof DocFrontmatterSchema>;
