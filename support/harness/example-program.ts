/**
 * A program folder holding one of the repository's examples (e.g. examples/basic), ready for
 * `@pulumi/pulumi/cmd/run` and the stand-in engine (engine.ts): `createTestProgram()` installs
 * `google-native-local` (see program.ts), then the example's program files are copied in and
 * `@pulumi/pulumi` is linked, as `npm install` in the example would give it.
 */
import * as fs from 'fs';
import * as path from 'path';
import { createTestProgram, REPO_ROOT, type TestProgram } from './program';

/**
 * The files of a Pulumi program in an example folder (not its package.json: createTestProgram
 * writes one), and the local data files it uploads (CSV).
 */
const PROGRAM_FILES = /^(Pulumi\.ya?ml|tsconfig\.json|.*\.ts|.*\.csv)$/;

export interface ExampleProgram extends TestProgram {
  /** The `name` in the example's Pulumi.yaml: the project name the CLI would pass. */
  project: string;
}

/** Creates a program folder with examples/<name> in it and the package installed. */
export async function createExampleProgram(name: string): Promise<ExampleProgram> {
  const exampleDir = path.join(REPO_ROOT, 'examples', name);
  const program = await createTestProgram();
  for (const file of fs.readdirSync(exampleDir)) {
    if (PROGRAM_FILES.test(file)) fs.copyFileSync(path.join(exampleDir, file), path.join(program.dir, file));
  }
  // The program imports @pulumi/pulumi itself. A link to the same folder the package resolves
  // (through its own node_modules link): Node follows both to one real path, so the program and
  // the package share one copy of the SDK, as npm's deduplication gives a user.
  const scope = path.join(program.dir, 'node_modules', '@pulumi');
  fs.mkdirSync(scope, { recursive: true });
  fs.symlinkSync(path.join(REPO_ROOT, 'node_modules', '@pulumi', 'pulumi'), path.join(scope, 'pulumi'), 'dir');
  const yaml = fs.readFileSync(path.join(program.dir, 'Pulumi.yaml'), 'utf8');
  const project = /^name:\s*(\S+)/m.exec(yaml)?.[1];
  if (!project) throw new Error(`no name in ${exampleDir}/Pulumi.yaml`);
  return { ...program, project };
}
