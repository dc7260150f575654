// Lint rules, including the architecture: src/core is pure (no I/O, no process, no console) and
// the layers import only downward (see ARCHITECTURE.md).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const HOOK_MESSAGE =
  'the hook (plugin/bin/lore-hook.cjs) imports only Node built-ins and these files: it must start as fast as a bare `node`. Parsing YAML, zod, picomatch and SQLite belong in the manifest build (src/store/manifest/manifest-build.ts).';

/** Files bundled into the hook, and what they must never load at run time. */
const HOOK_FILES = [
  'src/hook/lore-hook.ts',
  'src/hook/run-hook.ts',
  'src/hook/request-rebuild.ts',
  'src/hook/stop-markers.ts',
  'src/hook/lore-mcp.ts',
  'src/hook/launch-hook.ts',
  'src/store/fs/code-cache.ts',
  'src/core/feedback/feedback-markers.ts',
  'src/store/hook-state/manifest-files.ts',
  'src/store/hook-state/session-state.ts',
  'src/store/hook-state/audit-log.ts',
  'src/store/fs/paths.ts',
  'src/store/fs/fs-atomic.ts',
];
/** Core files of the hook's pipeline (build-manifest, render-lesson, detect-stack run at build time). */
const HOOK_CORE_FILES = ['src/core/inject/*.ts'];
const HOOK_CORE_BUILD_TIME = [
  'src/core/inject/build-manifest.ts',
  'src/core/inject/render-lesson.ts',
  'src/core/inject/detect-stack.ts',
  'src/core/inject/patch-manifest.ts',
];
const HOOK_FORBIDDEN = [
  'zod',
  'yaml',
  'picomatch',
  'libsql',
  '**/lesson/schema.js',
  '**/lesson-yaml.js',
  '**/config-yaml.js',
  '**/match/glob.js',
  '**/build-manifest.js',
  '**/manifest-build.js',
  '**/lesson-index.js',
  '**/sqlite.js',
  '**/workspace.js',
  '**/tier-store.js',
  '**/cli/**',
];
const hookPattern = { group: HOOK_FORBIDDEN, message: HOOK_MESSAGE, allowTypeImports: true };

const CORE_MESSAGE =
  'src/core is pure: data in, data out. File system, process, console and clocks belong in src/store (I/O edge) or src/cli; pass what core needs as arguments.';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'plugin/bin/**',
      'node_modules/**',
      'coverage/**',
      'bench/.data/**',
      'test-artifacts/**',
      'tools/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: 'TSEnumDeclaration', message: 'use an `as const` union instead of an enum (STYLE.md)' },
        { selector: 'ExportDefaultDeclaration', message: 'named exports only (STYLE.md)' },
      ],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'fs/*', 'path', 'os', 'child_process', 'crypto', 'libsql'],
              message: CORE_MESSAGE,
            },
            { group: ['**/store/**', '**/cli/**', '**/adapters/**', '**/capture/**'], message: CORE_MESSAGE },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'process', message: CORE_MESSAGE },
        { name: 'console', message: CORE_MESSAGE },
        { name: 'require', message: CORE_MESSAGE },
        { name: 'Buffer', message: CORE_MESSAGE },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Date', property: 'now', message: CORE_MESSAGE },
        { object: 'Math', property: 'random', message: CORE_MESSAGE },
      ],
    },
  },
  {
    files: ['src/store/**/*.ts', 'src/capture/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/cli/**', '**/adapters/**'],
              message:
                'the I/O edge (src/store, src/capture) must not import the CLI or adapters; they call it.',
            },
          ],
        },
      ],
    },
  },
  {
    files: HOOK_FILES,
    rules: { 'no-restricted-imports': ['error', { patterns: [hookPattern] }] },
  },
  {
    files: HOOK_CORE_FILES,
    ignores: HOOK_CORE_BUILD_TIME,
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            hookPattern,
            {
              group: ['node:*', 'fs', 'fs/*', 'path', 'os', 'child_process', 'crypto', 'libsql'],
              message: CORE_MESSAGE,
            },
            { group: ['**/store/**', '**/cli/**', '**/adapters/**', '**/capture/**'], message: CORE_MESSAGE },
          ],
        },
      ],
    },
  },
  ...[
    ['claude-code', 'codex'],
    ['codex', 'claude-code'],
  ].map(([host, other]) => ({
    files: [`src/adapters/${host}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            hookPattern,
            {
              group: [`**/adapters/${other}/**`],
              message: 'adapters translate one host each and never import each other',
            },
          ],
        },
      ],
    },
  })),
  {
    files: ['src/adapters/http/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/cli/**',
                '**/adapters/claude-code/**',
                '**/adapters/codex/**',
                '**/adapters/mcp/**',
              ],
              message:
                'the HTTP adapter calls the store like the CLI does, but never the CLI or another adapter: move shared code down to src/store or src/core',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/adapters/mcp/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/cli/**',
                '**/adapters/claude-code/**',
                '**/adapters/codex/**',
                '**/adapters/http/**',
              ],
              message:
                'the MCP adapter calls the store like the CLI does, but never the CLI or another adapter: move shared code down to src/store or src/core',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['web/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', '**/src/**'],
              message: 'web/ is the browser bundle: it talks to lore only through the HTTP API',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['*.config.ts', '*.config.js', '**/vitest.config.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.mjs', 'scripts/**/*.mjs'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        performance: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
      },
    },
  },
);
