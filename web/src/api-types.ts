/**
 * The API's response shapes, taken from the server's own types (src/adapters/http/api-types.ts)
 * rather than copied: a change to what a route returns fails `tsc -p web/tsconfig.json` here, not in
 * the browser. The one place web/ names src/: type-only, so esbuild erases it and the bundle still
 * talks to lore only over HTTP.
 */
export type * from '../../src/adapters/http/api-types.js';
