/** The jest side of running the compiled CLI: one build per test file, no process left behind. */
import { compiledCli, spawnCli, type CliProcess } from '../../support/cli-process';

/**
 * For a test file that runs the compiled CLI: builds it once before the tests (so no test pays
 * the build), and kills whatever the file's tests left running after each test. Push every
 * started process onto the returned list.
 */
export function cliProcessesOfThisFile(): CliProcess[] {
  const running: CliProcess[] = [];
  beforeAll(() => {
    compiledCli();
  }, 120_000);
  afterEach(async () => {
    for (const p of running.splice(0)) {
      if (p.child.exitCode === null && p.child.signalCode === null) {
        p.child.kill('SIGKILL');
        await p.exited;
      }
    }
  });
  return running;
}

/**
 * For a test file that starts the compiled CLI and waits for it to listen: `start(args, env)`,
 * with the same build-once and clean-up-after-each-test as cliProcessesOfThisFile().
 */
export function cliStarterOfThisFile(): (args: string[], env?: NodeJS.ProcessEnv) => Promise<CliProcess> {
  const running = cliProcessesOfThisFile();
  return async (args, env = {}) => {
    const p = await spawnCli(args, env);
    running.push(p);
    return p;
  };
}
