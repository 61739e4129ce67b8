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

// Integration suites whose drills take the shared broker down (brokerControl): run with the distributed test.
const RUN_ALONE = ['<rootDir>/libs/messaging/test/kafka.two-process.int-spec.ts'];

module.exports = {
  projects: [
    // Unit tests: beside the code, no network services.
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,tools}/**/*.spec.ts'] },
    // Integration and end-to-end tests: real PostgreSQL, Kafka-protocol broker and S3 server.
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{apps,libs,tools}/**/*.int-spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
      // Suites that take the shared broker down run alone, in the project below: run beside the
      // others, a drill's outage failed whichever suite was talking to the broker at that moment.
      testPathIgnorePatterns: ['/node_modules/', '<rootDir>/apps/platform/test/distributed/', ...RUN_ALONE],
      setupFilesAfterEnv: ['<rootDir>/tools/jest/integration-setup.js'],
    },
    // The distributed end-to-end test (every app as its own process behind nginx) and RUN_ALONE: their
    // drills take the shared broker down or restart the shared PostgreSQL, so `npm test` runs them
    // alone, in band, after the integration tests (scripts/test.mjs).
    {
      ...common,
      displayName: 'distributed',
      testMatch: ['<rootDir>/apps/platform/test/distributed/**/*.int-spec.ts', ...RUN_ALONE],
      setupFilesAfterEnv: ['<rootDir>/tools/jest/integration-setup.js'],
    },
  ],
};
