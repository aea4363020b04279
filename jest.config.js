/** Jest runs the TypeScript sources directly through ts-jest. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  transform: {
    // @marcbachmann/cel-js ships ESM only; jest's module system needs CommonJS, so it is transformed too.
    '^.+\\.[tj]s$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }],
  },
  transformIgnorePatterns: ['/node_modules/(?!@marcbachmann/cel-js/)'],
  testTimeout: 30000,
};
