// Lint rules, including the architecture: src/core is pure (no I/O, no process, no console) and
// the layers import only downward (see ARCHITECTURE.md).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const CORE_MESSAGE =
  'src/core is pure: data in, data out. File system, process, console and clocks belong in src/store (I/O edge) or src/cli; pass what core needs as arguments.';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'bench/.data/**',
      'test-artifacts/**',
      'tools/**',
      'plugin/bin/**',
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
