// What the hook may bundle, by folder: the hook itself (not its background rebuilder), the hook
// adapters, the pure core of its pipeline and the hook-safe store folders. eslint.config.js bans
// the heavy packages in them, scripts/check-imports.mjs (npm run lint) checks that they import
// nothing outside these folders at run time, and test/hook/bundle.test.ts that the bundle holds
// nothing else.
export const HOOK_FOLDERS = [
  'src/hook/**',
  'src/adapters/claude-code/**',
  'src/adapters/codex/**',
  'src/adapters/gemini/**',
  'src/adapters/cursor/**',
  'src/core/inject/**',
  'src/core/match/repo-path.ts',
  'src/core/match/cached-regex.ts',
  'src/core/feedback/feedback-markers.ts',
  'src/core/utc-time.ts',
  'src/core/errors.ts',
  'src/store/fs/**',
  'src/store/hook-state/**',
];

/** In src/hook/ but not the hook: the background manifest rebuilder's entry (bundles yaml, zod, picomatch). */
export const HOOK_EXCEPTIONS = ['src/hook/lore-manifest.ts'];

/** Whether a repository-relative path (`src/...`) is one the hook may bundle. */
export function isHookFile(path) {
  if (HOOK_EXCEPTIONS.includes(path)) return false;
  return HOOK_FOLDERS.some((glob) =>
    glob.endsWith('/**') ? path.startsWith(glob.slice(0, -2)) : path === glob,
  );
}
