/**
 * What kind of work an agent is about to do, and the lesson categories that matter for it.
 * `lore prompt --operation` and the curated lists (`--operation` on list views) share this one
 * mapping, so an operation means the same everywhere.
 */
import type { Category } from '../lesson/constants.js';

export const OPERATIONS = ['plan', 'implement', 'test', 'review', 'deploy', 'verify', 'optimize'] as const;
export type Operation = (typeof OPERATIONS)[number];

/**
 * Each row holds ADD's own mapping (its "Operation-to-Category Mapping": `/add:deploy` →
 * performance, technical, process; `/add:reviewer` → architecture, anti-pattern, process;
 * `/add:tdd-cycle` → technical, anti-pattern, performance) plus the categories lore added, so an
 * ADD user filtering by an operation never loses a lesson their own tool would have shown.
 */
export const OPERATION_CATEGORIES: Readonly<Record<Operation, readonly Category[]>> = {
  plan: ['architecture', 'process', 'collaboration', 'anti-pattern'],
  implement: ['technical', 'anti-pattern', 'architecture', 'security', 'tooling'],
  test: ['testing', 'technical', 'performance', 'tooling', 'anti-pattern'],
  review: ['anti-pattern', 'architecture', 'process', 'security', 'performance', 'collaboration'],
  deploy: ['performance', 'technical', 'process', 'tooling', 'security', 'collaboration'],
  verify: ['testing', 'process', 'technical'],
  optimize: ['performance', 'technical', 'architecture'],
};

export function isOperation(value: string): value is Operation {
  return (OPERATIONS as readonly string[]).includes(value);
}

/** The categories an operation maps to; every category when no operation is given. */
export function categoriesForOperation(operation: Operation | undefined): ReadonlySet<Category> | undefined {
  return operation === undefined ? undefined : new Set(OPERATION_CATEGORIES[operation]);
}
