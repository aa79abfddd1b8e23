import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'data/**',
      '.test-data/**',
      'artifacts/**',
      'coverage/**',
      '.cache/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['scripts/**', 'bench/**', '**/cli/**', 'e2e/**'],
    rules: { 'no-console': 'off' },
  },
  // Import boundaries: a workspace is used through its package entry (`@evo/<name>`), or its
  // `testing/` helpers from tests and scripts; never through another workspace's files.
  ...boundaries(),
);

function boundaries() {
  const WORKSPACES = ['contracts', 'domain', 'infra', 'projections', 'command-api', 'workers', 'server', 'web'];
  const deep = {
    // a path inside another workspace, unless it is one of its test helpers (a `testing/` folder)
    // or the entry that starts a projections' thread without loading the package (server/src/main.ts)
    regex: '^@evo/[^/]+/(?!(?:[^/]+/)*testing/|thread-worker$)',
    message: "Importez un autre espace de travail par son point d'entrée (@evo/<nom>), pas par ses fichiers.",
  };
  const outside = {
    group: WORKSPACES.flatMap((w) => [`../**/${w}/src/**`, `../**/${w}/src`]),
    message: 'Pas de chemin relatif vers un autre espace de travail : importez son paquet @evo/<nom>.',
  };
  const rule = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
  const serverOnly = {
    group: ['@evo/*', '!@evo/contracts'],
    message: "L'application web ne dépend du serveur que par @evo/contracts.",
  };
  const coinsKnowNoGifts = { group: ['../gifts/*'], message: 'Les coins ne dépendent pas des cadeaux.' };
  const notFromDomain = {
    group: [
      '@evo/infra',
      '@evo/projections',
      '@evo/workers',
      '@evo/command-api',
      '@evo/server',
      '@evo/web',
      'express',
      'mongodb',
      'better-sqlite3',
      'ioredis',
      'bullmq',
      'socket.io',
      'node:*',
    ],
    message: 'Le domaine est pur : ni adaptateur, ni I/O, ni autre couche.',
  };
  // the API holds the command side; the workers run some of it (gift credits, closing a wallet),
  // and the composition workspace (@evo/server) builds both: the API never imports them back
  const notFromApi = {
    group: ['@evo/workers', '@evo/server', '@evo/web'],
    message: "L'API ne dépend ni des workers ni de la composition (@evo/server) : ils la construisent.",
  };
  const notFromWorkers = {
    group: ['@evo/server', '@evo/web'],
    message: 'Les workers ne dépendent pas de la composition (@evo/server) : elle les construit.',
  };
  return [
    { files: ['**/*.{ts,tsx,js,mjs}'], rules: rule(deep, outside) },
    { files: ['domain/src/**'], rules: rule(deep, outside, notFromDomain) },
    {
      files: ['command-api/src/**'],
      // its tests start the composed product (test code sits above every workspace)
      ignores: ['**/*.test.ts', '**/testing/**'],
      rules: rule(deep, outside, notFromApi),
    },
    { files: ['workers/src/**'], rules: rule(deep, outside, notFromWorkers) },
    {
      files: ['contracts/src/**'],
      // zod only: the schemas are the contract, run by the web app and the server's tests
      rules: rule({ regex: '^(?!\\.{1,2}/|zod$)', message: 'Le contrat ne dépend que de zod.' }),
    },
    { files: ['web/src/**'], rules: rule(deep, outside, serverOnly) },
    // gifts are paid with coins: the gifts slice uses the wallet, never the other way round
    { files: ['web/src/coins/**'], rules: rule(deep, outside, serverOnly, coinsKnowNoGifts) },
  ];
}
