// Lint rules, including the architecture: src/core is pure (no I/O, no process, no console) and
// the layers import only downward (see ARCHITECTURE.md).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { HOOK_EXCEPTIONS, HOOK_FOLDERS } from './scripts/hook-folders.mjs';

const HOOK_MESSAGE =
  'the hook (plugin/bin/lore-hook.cjs) imports only Node built-ins and the hook folders (HOOK_FOLDERS): it must start as fast as a bare `node`. Parsing YAML, zod, picomatch and SQLite belong in the manifest build (src/store/manifest/, src/core/manifest/).';

const HOOK_FILES = HOOK_FOLDERS.map((glob) => (glob.endsWith('/**') ? `${glob}/*.ts` : glob));
const HOOK_FORBIDDEN = [
  'zod',
  'yaml',
  'picomatch',
  'libsql',
  '**/lesson/**',
  '**/match/glob*.js',
  '**/manifest/**',
  '**/index/**',
  '**/sqlite/**',
  '**/workspace/**',
  '**/lessons/**',
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
      'gemini-extension/bin/**',
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
    // A function longer than a screenful hides its stages: compose small named ones (STYLE.md).
    files: ['src/**/*.ts', 'web/src/**/*.ts'],
    rules: {
      'max-lines-per-function': ['error', { max: 150, skipBlankLines: true, skipComments: true }],
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
            {
              // `../capture/` from a core folder is core/capture (core/distill reads candidates).
              group: ['**/store/**', '**/cli/**', '**/adapters/**', '**/capture/**', '!../capture/**'],
              message: CORE_MESSAGE,
            },
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
    files: ['src/store/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/cli/**', '**/adapters/**', '**/hook/**', '**/capture/**', '!**/core/capture/**'],
              message:
                'src/store is the I/O edge under everything but core: the CLI, the adapters, the hook and capture call it, never the reverse. Move what both need into src/store or src/core.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/capture/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/cli/**', '**/adapters/**', '**/hook/**'],
              message:
                'capture must not import the CLI, the adapters or the hook; they call it. Move what both need into src/store or src/core.',
            },
          ],
        },
      ],
    },
  },
  {
    files: HOOK_FILES,
    ignores: HOOK_EXCEPTIONS,
    rules: { 'no-restricted-imports': ['error', { patterns: [hookPattern] }] },
  },
  {
    files: ['src/core/inject/**/*.ts'],
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
  ...['claude-code', 'codex', 'gemini', 'cursor'].map((host) => ({
    files: [`src/adapters/${host}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            hookPattern,
            {
              group: ['claude-code', 'codex', 'gemini', 'cursor']
                .filter((other) => other !== host)
                .map((other) => `**/adapters/${other}/**`),
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
                '**/adapters/gemini/**',
                '**/adapters/cursor/**',
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
                '**/adapters/gemini/**',
                '**/adapters/cursor/**',
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
              allowTypeImports: true,
              message:
                'web/ is the browser bundle: it talks to lore only through the HTTP API (types may be imported from the server with `import type`)',
            },
          ],
        },
      ],
      // the dashboard's typecheck sees @types/node through the server's types: keep Node out of the bundle
      'no-restricted-globals': [
        'error',
        ...['process', 'Buffer', 'require', '__dirname', 'global'].map((name) => ({
          name,
          message: 'web/ runs in the browser: no Node globals',
        })),
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
