/**
 * What `npm publish` would ship (`files` in package.json): what a user needs to run the provider,
 * the emulator and its console, and nothing of the project's own tests, CI, fixtures or benches.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');

let packed: string[] | undefined;

/** The file list of `npm pack --dry-run`, listed once per run of this file. */
function packedFiles(): string[] {
  return (packed ??= listPacked());
}

function listPacked(): string[] {
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
});

// dist/ is built by `npm install` (prepare) and by `npm run build`; a clone without it (installed
// with --ignore-scripts) has nothing of it to ship. Decided here, reported as skipped with why.
const built = fs.existsSync(path.join(ROOT, 'dist', 'index.js'));
(built ? it : it.skip)(
  `ships the build: dist/ (the entry points of the package and the CLI)${built ? '' : ' [SKIPPED: dist/ is not built; npm run build]'}`,
  () => {
    expect(packedFiles()).toEqual(
      expect.arrayContaining([
        'dist/index.js',
        'dist/index.d.ts',
        'dist/backend-emulator/cli.js',
        'dist/backend-emulator/commands/main.js',
        'dist/provider/index.js',
      ]),
    );
  },
);

it('the example lists the TypeScript it is type-checked with', () => {
  const example = JSON.parse(fs.readFileSync(path.join(ROOT, 'examples', 'basic', 'package.json'), 'utf8')) as { devDependencies?: Record<string, string> };
  expect(Object.keys(example.devDependencies ?? {})).toEqual(expect.arrayContaining(['typescript', '@types/node']));
  expect(fs.existsSync(path.join(ROOT, 'examples', 'basic', 'tsconfig.json'))).toBe(true);
});

it('ships the Apache-2.0 license its package.json names', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { license: string };
  expect(pkg.license).toBe('Apache-2.0');
  expect(packedFiles()).toContain('LICENSE');
  const text = fs.readFileSync(path.join(ROOT, 'LICENSE'), 'utf8');
  expect(text).toMatch(/^\s+Apache License\n\s+Version 2\.0, January 2004\n/);
  expect(text).toContain('TERMS AND CONDITIONS FOR USE, REPRODUCTION, AND DISTRIBUTION');
  expect(text).toContain('END OF TERMS AND CONDITIONS');
});

it("every link of the README and of the docs' pages to a page or image of docs/ is a file of the package", () => {
  const files = new Set(packedFiles());
  const pages = ['README.md', ...[...files].filter((f) => f.startsWith('docs/') && f.endsWith('.md'))];
  const dead: string[] = [];
  let checked = 0;
  for (const page of pages) {
    const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
    for (const [, target] of text.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const file = path.posix.normalize(path.posix.join(path.posix.dirname(page), target)).replace(/\/$/, '');
      // Links to the project's sources and tests are for readers of the repository.
      if (!file.startsWith('docs/')) continue;
      checked++;
      // A folder's link (`formats/`) is alive when the package holds files in it.
      if (!files.has(file) && ![...files].some((f) => f.startsWith(`${file}/`))) dead.push(`${page} -> ${target}`);
    }
  }
  expect(dead).toEqual([]);
  expect(checked).toBeGreaterThan(50);
});

it('the README says the console imports (it is not read-only)', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  expect(readme).not.toMatch(/read-only web console/);
  expect(readme).toContain('web console at\n`http://127.0.0.1:8085/`: import an inventory');
});

describe('the exports map', () => {
  // A consumer's folder whose node_modules holds this package: node resolves through `exports`
  // there as in an installed package (inside the package itself it would resolve its own files).
  const consumer = fs.mkdtempSync(path.join(os.tmpdir(), 'gnl-consumer-'));
  fs.mkdirSync(path.join(consumer, 'node_modules'));
  fs.symlinkSync(ROOT, path.join(consumer, 'node_modules', 'google-native-local'), 'dir');
  const resolve = (specifier: string): string => {
    const script = `try { process.stdout.write(require('path').relative(${JSON.stringify(ROOT)}, require.resolve(${JSON.stringify(specifier)}))) } catch (e) { process.stdout.write(e.code) }`;
    return execFileSync(process.execPath, ['-e', script], { cwd: consumer, encoding: 'utf8' });
  };

  it.each([
    ['google-native-local', 'dist/index.js'],
    // What Pulumi's serialized closures require (provider/lazy-provider.ts) and the tests assert.
    ['google-native-local/dist/provider/import-job-impl', 'dist/provider/import-job-impl.js'],
    ['google-native-local/dist/provider/runtime', 'dist/provider/runtime.js'],
    ['google-native-local/dist/provider/backends.js', 'dist/provider/backends.js'],
    ['google-native-local/dist/backend-emulator', 'dist/backend-emulator/index.js'],
    ['google-native-local/dist/backend-emulator/commands/main.js', 'dist/backend-emulator/commands/main.js'],
    ['google-native-local/schemas/ImportJobArgs.schema.json', 'schemas/ImportJobArgs.schema.json'],
    ['google-native-local/package.json', 'package.json'],
  ])('%s resolves to %s', (specifier, file) => {
    expect(resolve(specifier)).toBe(file);
  });

  it('keeps the sources and tests private', () => {
    expect([resolve('google-native-local/backend-emulator/cli.ts'), resolve('google-native-local/tests/package/files.process.test.ts')]).toEqual([
      'ERR_PACKAGE_PATH_NOT_EXPORTED',
      'ERR_PACKAGE_PATH_NOT_EXPORTED',
    ]);
  });
});
