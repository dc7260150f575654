/**
 * The record lore keeps for every doc (from the frontmatter where it is valid, inferred from the
 * layout and the body where not), and the frontmatter's closed field list. No zod here: read
 * commands answered from the cache load this file only.
 */
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

/** The message of a doc without any frontmatter (an expected state on day one, not damage). */
export const NO_FRONTMATTER =
  'no frontmatter; add a --- block with type and summary, or run `lore docs migrate`';

/** The message of a doc whose opening `---` is followed by fields but never closed (reported at line 1). */
export const UNCLOSED_FRONTMATTER =
  'the frontmatter opened here is never closed (no `---` line after it); close it by hand (`lore docs migrate` leaves it alone)';

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
