// Types of bundle-mcp.mjs, for its unit test.
export function lazySchemas(text: string): { text: string; count: number };
