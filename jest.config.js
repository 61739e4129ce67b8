// Jest runs TypeScript through SWC (decorator metadata included, no type-check:
// `pnpm typecheck` does that once for the whole tree).
const { pathsToModuleNameMapper } = require('./tools/jest/paths');

const transform = { '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022', keepClassNames: true } }] };
const common = {
  transform,
  moduleNameMapper: pathsToModuleNameMapper(),
  testEnvironment: 'node',
  setupFiles: ['reflect-metadata'],
};

module.exports = {
  projects: [
    // Unit tests: beside the code, no network services.
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,tools}/**/*.spec.ts'] },
    // Integration and end-to-end tests: real PostgreSQL, Kafka-protocol broker and S3 server.
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs,tools}/**/*.int-spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/apps/platform/test/distributed/'],
      setupFilesAfterEnv: ['<rootDir>/tools/jest/integration-setup.js'],
    },
    // The distributed end-to-end test: every app as its own process behind nginx. Its drills take
    // the shared broker down and restart the shared PostgreSQL, so `npm test` runs it alone, after
    // the integration tests (scripts/test.mjs).
    {
      ...common,
      displayName: 'distributed',
      testMatch: ['<rootDir>/apps/platform/test/distributed/**/*.int-spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/tools/jest/integration-setup.js'],
    },
  ],
};
