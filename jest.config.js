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
};
