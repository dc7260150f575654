/**
 * Whether a stored candidate (`<tier>/candidates/<id>/lesson.yaml`) has the shape lore writes:
 * a candidate edited by hand, or cut short, with a field of the wrong type would otherwise stop
 * `lore candidates list` (and every other verb that lists them) with an internal error. One that
 * does not is reported with its field and skipped; the others list as usual.
 */
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
const isStrings = (value: unknown) => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** Required fields and their checks. */
const REQUIRED: readonly [string, (value: unknown) => boolean, string][] = [
  ['summary', (value) => typeof value === 'string' && value.trim() !== '', 'a text'],
  ['confidence', isNumber, 'a number'],
  ['priority', isNumber, 'a number'],
  ['occurrences', isNumber, 'a number'],
  ['needsReview', (value) => typeof value === 'boolean', 'true or false'],
  ['sourceSessions', isStrings, 'a list of texts'],
  ['contentHash', (value) => typeof value === 'string', 'a text'],
];

/** Lesson fields a candidate may carry, checked when present. */
const TEXTS = [
  'body',
  'mistake',
  'remediation',
  'context',
  'observation',
  'implication',
  'action',
  'category',
  'severity',
  'type',
] as const;
const LISTS = ['tools', 'commands', 'paths', 'errors', 'contents', 'tags', 'stack', 'agents'] as const;

const CAPTURE_REQUIRED: readonly [string, (value: unknown) => boolean, string][] = [
  ['kind', (value) => typeof value === 'string', 'a text'],
  ['tier', (value) => value === 1 || value === 2, '1 or 2'],
  ['agents', isStrings, 'a list of texts'],
  ['trigger', (value) => typeof value === 'string', 'a text'],
  ['projects', isStrings, 'a list of texts'],
  ['anchors', isStrings, 'a list of texts'],
  ['evidence', (value) => Array.isArray(value) && value.every(isObject), 'a list of mappings'],
  ['firstSeen', (value) => typeof value === 'string', 'a text'],
  ['lastSeen', (value) => typeof value === 'string', 'a text'],
  ['signals', isObject, 'a mapping'],
];

/** What is wrong with a parsed candidate file (field and expected type), or undefined when it is usable. */
export function candidateShapeProblem(record: unknown): string | undefined {
  if (!isObject(record)) return 'not a mapping of fields';
  for (const [field, valid, expected] of REQUIRED)
    if (!valid(record[field])) return `${field} must be ${expected}`;
  for (const field of TEXTS)
    if (record[field] !== undefined && typeof record[field] !== 'string') return `${field} must be a text`;
  for (const field of LISTS)
    if (record[field] !== undefined && !isStrings(record[field])) return `${field} must be a list of texts`;
  const capture = record.capture;
  if (!isObject(capture)) return 'capture must be a mapping';
  for (const [field, valid, expected] of CAPTURE_REQUIRED)
    if (!valid(capture[field])) return `capture.${field} must be ${expected}`;
  for (const field of ['tool', 'scope', 'scopeReason'])
    if (capture[field] !== undefined && typeof capture[field] !== 'string')
      return `capture.${field} must be a text`;
  if (capture.hashes !== undefined && !isStrings(capture.hashes))
    return 'capture.hashes must be a list of texts';
  return undefined;
}
