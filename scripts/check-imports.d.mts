// Types of check-imports.mjs, for its unit test.
export function valueImports(file: string, text: string): string[];
export function findCircles(graph: Map<string, string[]>): string[][];
export function hookViolations(file: string, imports: string[]): string[];
