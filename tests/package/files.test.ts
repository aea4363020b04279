/**
 * What `npm publish` would ship (`files` in package.json): what a user needs to run the provider,
 * the emulator and its console, and nothing of the project's own tests, CI, fixtures or benches.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');

function packedFiles(): string[] {
  // --ignore-scripts: listing the files must not rebuild dist/ (the test reads the files present).
  const out = execFileSync('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return (JSON.parse(out) as Array<{ files: Array<{ path: string }> }>)[0].files.map((f) => f.path);
}

it('ships the build, the console, the schemas and the docs a user reads, and no tests, CI, fixtures or benchmarks', () => {
  const files = packedFiles();
  for (const forbidden of [/^tests\//, /^\.ci\//, /^bench\//, /^scripts\//, /^examples\//, /fixtures/, /\.test\./, /\.map$/, /^[^/]+\.ts$/]) {
    expect(files.filter((f) => forbidden.test(f))).toEqual([]);
  }
  expect(files).toEqual(
    expect.arrayContaining(['package.json', 'README.md', 'CHANGELOG.md', 'backend-emulator/console/static/index.html', 'schemas/ImportJobArgs.schema.json']),
  );
  if (fs.existsSync(path.join(ROOT, 'dist', 'index.js'))) {
    expect(files).toEqual(
      expect.arrayContaining([
        'dist/index.js',
        'dist/index.d.ts',
        'dist/backend-emulator/cli.js',
        'dist/backend-emulator/commands/main.js',
        'dist/provider/index.js',
      ]),
    );
  }
});

it('the example lists the TypeScript it is type-checked with', () => {
  const example = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', 'basic', 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
  expect(Object.keys(example.devDependencies ?? {})).toEqual(expect.arrayContaining(['typescript', '@types/node']));
  expect(fs.existsSync(path.join(ROOT, 'examples', 'basic', 'tsconfig.json'))).toBe(true);
});
