/**
 * The frontmatter of a project doc, closed at six fields, and the record lore keeps for every doc
 * (from the frontmatter where it is valid, inferred from the layout and the body where not).
 */
import { z } from 'zod';

export const DOC_TYPES = ['design', 'pattern', 'context', 'glossary', 'runbook'] as const;
export type DocType = (typeof DOC_TYPES)[number];

export const DOC_FIELDS = [
  'type',
  'summary',
  'tags',
  'paths',
  'related_features',
  'related_artifacts',
] as const;
export type DocField = (typeof DOC_FIELDS)[number];

const oneLine = z
  .string()
  .trim()
  .min(1, 'must be a non-empty line')
  .refine((value) => !/[\r\n]/.test(value), 'must be one line');
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

/** Where a record's metadata came from. */
export const DOC_SOURCES = ['frontmatter', 'partial', 'inferred'] as const;
export type DocSource = (typeof DOC_SOURCES)[number];

export type DocRecord = {
  /** Repo-relative POSIX path. */
  path: string;
  type: DocType;
  summary: string;
  tags: string[];
  paths: string[];
  relatedFeatures: string[];
  relatedArtifacts: string[];
  /** frontmatter: all of it valid; partial: some fields inferred; inferred: no usable frontmatter. */
  source: DocSource;
  /** 1-based line where the body starts (after the frontmatter). */
  bodyLine: number;
};
