/** Two projects: fast unit specs beside the code, and e2e specs against a real app and PostgreSQL. */
const transform = { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] };

module.exports = {
  reporters: ['<rootDir>/test/support/summary-reporter.js', 'default'],
  testTimeout: 60000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: 'node',
      // test/ too, for the specs that check the tests themselves (test/support/waiting-rules.spec.ts)
      roots: ['<rootDir>/src', '<rootDir>/libs', '<rootDir>/test'],
      testMatch: ['**/*.spec.ts'],
      transform,
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      roots: ['<rootDir>/test'],
      testMatch: ['**/*.e2e-spec.ts'],
      transform,
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
    {
      // The fault suite: service and database processes of its own, killed under load (`npm run test:faults`).
      displayName: 'faults',
      testEnvironment: 'node',
      roots: ['<rootDir>/test/faults'],
      testMatch: ['**/*.faults-spec.ts'],
      transform,
    },
  ],
};
