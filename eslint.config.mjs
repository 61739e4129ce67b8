// Lint = TypeScript rules + Nx module boundaries. The boundaries are the
// architecture: an app never imports another app (Nx forbids it outright), a
// service library never imports another service's library (its data layer
// included), and infrastructure libraries never depend on services.
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';

// Prisma's model operations (client.<model>.<operation>), for the repository rule below.
const PRISMA_OPERATIONS = [
  'findUnique', 'findUniqueOrThrow', 'findFirst', 'findFirstOrThrow', 'findMany',
  'create', 'createMany', 'createManyAndReturn', 'update', 'updateMany', 'updateManyAndReturn',
  'upsert', 'delete', 'deleteMany', 'count', 'aggregate', 'groupBy',
].join('|');

const anyShared = ['type:util', 'type:platform', 'type:publishable', 'type:testing'];

export default [
  {
    ignores: ['**/node_modules/**', '**/dist/**', '**/generated/**', '.data/**', '.cache/**', 'tools/lint-fixtures/**', '**/*.js', '**/*.mjs', '**/*.cjs'],
  },
  ...tseslint.configs.recommended,
  prettier,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          // Test-only cycles: libraries' integration tests use @genasset/testing, whose service
          // harness runs those libraries through @genasset/runtime. No production code path
          // depends on testing (testing is only imported by *.spec/*.int-spec files and bench/).
          ignoredCircularDependencies: [
            ['testing', 'runtime'],
            ['testing', 'messaging'],
            ['testing', 'storage'],
            ['testing', 'http'],
            ['testing', 'persistence'],
            ['testing', 'identity'],
            ['testing', 'auth'],
            ['testing', 'internal-api'],
          ],
          depConstraints: [
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'] },
            { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:util', 'type:platform', 'type:testing'] },
            { sourceTag: 'type:publishable', onlyDependOnLibsWithTags: ['type:publishable', 'type:testing'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:util', 'type:platform', 'type:publishable', 'type:runtime'] },
            { sourceTag: 'type:runtime', onlyDependOnLibsWithTags: [...anyShared] },
            { sourceTag: 'type:service', onlyDependOnLibsWithTags: [...anyShared] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: [...anyShared, 'type:runtime', 'type:service', 'type:catalog'] },
            { sourceTag: 'type:catalog', onlyDependOnLibsWithTags: [...anyShared, 'type:service', 'type:runtime'] },
            // A service app may only load its own service library.
            { sourceTag: 'scope:asset', onlyDependOnLibsWithTags: ['scope:shared', 'scope:asset'] },
            { sourceTag: 'scope:collection', onlyDependOnLibsWithTags: ['scope:shared', 'scope:collection'] },
            { sourceTag: 'scope:generation', onlyDependOnLibsWithTags: ['scope:shared', 'scope:generation'] },
            { sourceTag: 'scope:inference', onlyDependOnLibsWithTags: ['scope:shared', 'scope:inference'] },
            { sourceTag: 'scope:job', onlyDependOnLibsWithTags: ['scope:shared', 'scope:job'] },
            { sourceTag: 'scope:webhook', onlyDependOnLibsWithTags: ['scope:shared', 'scope:webhook'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            // The web console talks to the platform over the public API only; its tests use the testing library.
            { sourceTag: 'scope:console', onlyDependOnLibsWithTags: ['type:testing'] },
            // platform (embedded mode) and cli compose every service.
            { sourceTag: 'scope:platform', onlyDependOnLibsWithTags: ['*'] },
          ],
        },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    // The testing library is for tests and benchmarks only (the cycles ignored above rely on it).
    files: ['apps/**/*.ts', 'libs/**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/test/**', 'libs/testing/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: '@genasset/testing', message: 'only tests and benchmarks may import @genasset/testing' }] }],
    },
  },
  {
    // Data access lives in repositories (docs/architecture.md, "Feature folders"): outside a
    // `*.repository.ts`, service code neither holds the Prisma client (`this.prisma`) nor runs a
    // transaction, raw SQL or a model query on a transaction client itself; it calls a repository.
    files: ['libs/services/**/*.ts', 'libs/identity/**/*.ts'],
    ignores: [
      '**/*.repository.ts',
      '**/*.spec.ts',
      '**/*.int-spec.ts',
      '**/test/**',
      '**/generated/**',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.type='ThisExpression'][property.name='prisma']",
          message: 'data access goes through a repository (<feature>.repository.ts); inject that instead of the Prisma client',
        },
        {
          selector: 'MemberExpression[property.name=/^\\$(transaction|queryRaw|queryRawUnsafe|executeRaw|executeRawUnsafe)$/]',
          message: 'transactions and SQL belong in a repository (<feature>.repository.ts): call its method',
        },
        {
          selector: `CallExpression[callee.object.object.name=/^(tx|client)$/][callee.property.name=/^(${PRISMA_OPERATIONS})$/]`,
          message: "a model query on a transaction client belongs in a repository (<feature>.repository.ts): pass `tx` to its method",
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', 'bench/**/*.ts', 'test/**/*.ts', '**/test/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
  // The web console (apps/console/src): browser code bundled by Vite. It reaches the platform only
  // through the public HTTP API, never by importing workspace or Node code; jsx-a11y keeps its
  // controls labelled and keyboard-operable, react-hooks keeps its effects honest.
  {
    ...jsxA11y.flatConfigs.recommended,
    files: ['apps/console/src/**/*.{ts,tsx}'],
  },
  {
    ...reactHooks.configs.flat.recommended,
    files: ['apps/console/src/**/*.{ts,tsx}'],
  },
  {
    files: ['apps/console/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['@genasset/*', 'node:*'], message: 'the console calls the public API; it imports no workspace or Node code' }] },
      ],
      // Scrollable JSON blocks are labelled regions that keyboard users must be able to focus to scroll.
      'jsx-a11y/no-noninteractive-tabindex': ['error', { tags: [], roles: ['tabpanel', 'region'] }],
    },
  },
];
