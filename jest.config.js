/** Jest runs the TypeScript sources directly through ts-jest. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  transform: {
    // @marcbachmann/cel-js and cookie 2 (loaded by fastify's inject) ship ESM only; jest's module system needs CommonJS.
    '^.+\\.[tj]s$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(@marcbachmann/cel-js|cookie)/)'],
  testTimeout: 30000,
  // One temp folder per run (TMPDIR), removed at the end: a run leaves nothing in /tmp.
  globalSetup: '<rootDir>/tests/support/global-setup.ts',
  globalTeardown: '<rootDir>/tests/support/global-teardown.ts',
};
