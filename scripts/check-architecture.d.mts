// Types of check-architecture.mjs, for its unit test.
export function sectionsByFolder(markdown: string): Map<string, string>;
export function findGaps(markdown: string, files: string[]): string[];
