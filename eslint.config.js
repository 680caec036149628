// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Folders that form the pure core: no Fastify, no HTTP layer, no process. */
const pureCore = [
  'src/dataset/**',
  'src/query/**',
  'src/access/**',
  'src/problems/**',
  'src/compatibility/**',
];

/**
 * Import rules, each for a set of files. ESLint replaces a rule's options where two blocks meet
 * rather than merging them, so each block below is built from every rule that holds for it.
 */
const noHttp = [
  { group: ['fastify', '@fastify/*', 'fastify-plugin'], message: 'The core knows no HTTP.' },
  { group: ['**/http/**', '**/cli/**'], message: 'The core never imports the edges.' },
];
// The query engine's insides (its index layouts, tuning and caches) are its own: the rest of the
// code reaches it through engine.ts. Its tests may look inside.
const queryInsides = [
  {
    group: [
      '**/query/indexed-engine*',
      '**/query/engine-index*',
      '**/query/name-index*',
      '**/query/name-pages*',
    ],
    message: 'Reach the query engine through query/engine.ts.',
  },
];
/** @param {{ group: string[], message: string }[]} patterns */
const restrictImports = (patterns) => ({
  'no-restricted-imports': ['error', { patterns }],
});

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', 'bench/results/', '.stryker-tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // Fastify hooks are async so that a throw becomes a rejection it routes to the error handler.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['src/**'],
    ignores: ['src/query/**'],
    rules: restrictImports(queryInsides),
  },
  {
    // Admin API and simulation plug into the HTTP layer; only the composition root
    // (src/api/build-app.ts) wires them in.
    files: ['src/http/**'],
    rules: restrictImports([
      ...queryInsides,
      {
        group: ['**/admin/**', '**/simulation/**'],
        message: 'Only build-app.ts, the composition root, wires the admin API and simulation in.',
      },
    ]),
  },
  {
    files: pureCore,
    rules: {
      ...restrictImports(noHttp),
      'no-restricted-globals': [
        'error',
        { name: 'process', message: 'The core never touches process.' },
      ],
    },
  },
  {
    files: pureCore.filter((folder) => folder !== 'src/query/**'),
    rules: restrictImports([...noHttp, ...queryInsides]),
  },
  {
    // The contract checker is an oracle of its own: a bug in the stand-in's folding, parameter
    // parsing or access levels must not move its judge with it. It shares the spec loader and
    // the response validator only.
    files: ['src/contract/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/dataset/**',
                '**/resources/**',
                '**/query/**',
                '**/access/**',
                '**/http/**',
                '**/scenarios/**',
                '**/spec/parameter-parser*',
                '**/spec/apply-compatibility*',
              ],
              message: 'The contract checker judges with its own reading, not the stand-in’s code.',
            },
            {
              group: ['fastify', '@fastify/*', 'fastify-plugin'],
              message: 'The checker is a client.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      // Node's globals that the scripts and examples use.
      globals: { process: 'readonly', console: 'readonly', fetch: 'readonly' },
    },
  },
);
