/** Jest runs the TypeScript sources directly through ts-jest. */
const os = require('node:os');
const path = require('node:path');

/*
 * Node's compile cache (Node 22.1+): the modules Node itself loads (jest's own, ts-jest, TypeScript)
 * start from cached bytecode, here and in the workers, which inherit the variable (about 0.4 s of
 * CPU per process). In node_modules/.cache, so that a run leaves nothing in the machine's temp dir.
 */
if (!process.env.NODE_COMPILE_CACHE) process.env.NODE_COMPILE_CACHE = path.join(__dirname, 'node_modules', '.cache', 'node-compile-cache');
require('node:module').enableCompileCache?.(process.env.NODE_COMPILE_CACHE);

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  transform: {
    // @marcbachmann/cel-js and cookie 2 (loaded by fastify's inject) ship ESM only; jest's module system needs CommonJS.
    // ts-jest, loaded only on a cache miss (scripts/jest-transform.js says why).
    '^.+\\.[tj]s$': ['<rootDir>/scripts/jest-transform.js', { tsconfig: '<rootDir>/tsconfig.test.json' }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(@marcbachmann/cel-js|cookie)/)'],
  testTimeout: 30000,
  // At least two workers: jest's default (one fewer than the cores) ran the whole suite in one
  // process on a 2-core machine, one core idle while a file waits on the processes it spawned
  // (Pulumi programs, gcloud, the CLI). Every long test has a time limit sized for a loaded
  // 2-core machine, and the suite passes with two files at a time under a load of 5.7.
  maxWorkers: Math.max(2, os.availableParallelism() - 1),
  // A worker is replaced once its heap is over 300 MB after a file. Unbounded, each of the two
  // grew to 430 to 620 MB of heap (0.8 to 1 GB of RSS) over its ~70 files of test:quick, and a
  // process that size took 350 to 950 ms to be gone under load, against the 500 ms jest gives a
  // worker at the end of a run: "A worker process has failed to exit gracefully" in 7 of 9 runs,
  // though no file left a referenced handle, timer, worker thread or child process. With the
  // limit, 1 of 3 (the other cause, an idle import worker, is ended by the emulator's close now;
  // docs/benchmarks.md, fifteenth session).
  workerIdleMemoryLimit: '300MB',
  // One temp folder per run (TMPDIR), removed at the end: a run leaves nothing in /tmp.
  globalSetup: '<rootDir>/tests/support/global-setup.ts',
  globalTeardown: '<rootDir>/tests/support/global-teardown.ts',
};
