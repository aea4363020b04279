/**
 * `npm run example`: runs the Pulumi program examples/basic for real, without the Pulumi CLI (it
 * cannot be installed everywhere): @pulumi/pulumi's own program runner against the stand-in
 * engine of the tests (support/harness/engine.ts), our providers in the real dynamic-provider host,
 * the embedded default backend keeping its state in the program folder. `up`, a second `up` that
 * must change nothing, then `destroy`. tests/example/basic-program.test.ts walks the same steps.
 */
import { createExampleProgram, StandInEngine, type RunResult } from '../support/harness';
import { ENDPOINT_ENV, parseEndpoint } from '../provider/backends';

const SYMBOLS: Record<string, string> = { create: '+', update: '~', replace: '+-', delete: '-', same: ' ' };

function print(result: RunResult): void {
  for (const [urn, op] of result.operations) {
    const [, , type, name] = urn.split('::');
    console.log(`${SYMBOLS[op] ?? '?'} ${type} ${name} ${op}`);
  }
  if (result.exitCode !== 0 || result.errors.length) {
    throw new Error(`the program failed (exit code ${result.exitCode}):\n${[...result.errors, ...result.logs].join('\n')}\n${result.stderr}`);
  }
}

async function main(): Promise<void> {
  const program = await createExampleProgram('basic');
  const engine = new StandInEngine({ programDir: program.dir, project: program.project, stack: 'dev' });
  try {
    // The providers choose their backend from the environment the engine passes on (no stack config here).
    const endpoint = parseEndpoint(process.env[ENDPOINT_ENV]);
    const backend =
      endpoint.kind === 'embedded'
        ? 'embedded emulator state in .google-native-local/'
        : endpoint.kind === 'http'
          ? `the emulator at ${endpoint.baseUrl}`
          : 'the real Google APIs';
    console.log(`program folder: ${program.dir} (${backend})\n`);
    console.log('pulumi up');
    const first = await engine.run();
    print(first);
    console.log('\nOutputs:');
    console.log(JSON.stringify(first.outputs, null, 2));

    console.log('\npulumi up (again)');
    const second = await engine.run();
    print(second);
    if ([...second.operations.values()].some((op) => op !== 'same')) throw new Error('the second run changed something');

    console.log('\npulumi destroy');
    print(await engine.destroy());
  } finally {
    await engine.close();
    program.cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
