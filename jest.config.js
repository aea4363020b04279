/** Jest runs the TypeScript sources directly through ts-jest. */
const path = require('node:path');

/*
 * Node's compile cache (Node 22.1+): the modules Node itself loads (jest's own, ts-jest, TypeScript)
 * start from cached bytecode, here and in the workers, which inherit the variable (about 0.4 s of
 * CPU per process). In node_modules/.cache, so that a run leaves nothing in the machine's temp dir.
 */
if (!process.env.NODE_COMPILE_CACHE) process.env.NODE_COMPILE_CACHE = path.join(__dirname, 'node_modules', '.cache', 'node-compile-cache');
require('node:module').enableCompileCache?.(process.env.NODE_COMPILE_CACHE);

/*
 * A larger young generation for the workers (inherited through NODE_OPTIONS, as are the processes
 * the tests spawn): every test file loads its own copy of the app's modules, garbage a file later,
 * and with V8's default 16 MiB semi-spaces the scavenges that promote it took a tenth of a worker's
 * CPU. 32 MiB cut a run of three route test files from 20 to 17.5 CPU-s (docs/benchmarks.md).
 */
if (!/--max-semi-space-size/.test(process.env.NODE_OPTIONS ?? '')) {
  process.env.NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} --max-semi-space-size=32`.trim();
}

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
