/**
 * The frontmatter of a project doc, closed at six fields, in zod (the record types are in
 * doc-record.ts, which loads without zod for the read commands' fast path).
 */
import { z } from 'zod';

import { INVISIBLE_IN_LINE } from '../lesson/constants.js';
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
    const found = INVISIBLE_IN_LINE.exec(value)?.[0];
    if (found === undefined) return;
    const code = found.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    ctx.addIssue({ code: 'custom', message: `must not hold an invisible control character (U+${code})` });
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
