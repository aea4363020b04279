/**
 * The emulator's malloc settings (backend-emulator/malloc-arenas.ts): when the serving entry
 * points re-execute themselves, and that the compiled CLI does so in the same process (its pid),
 * quietly, leaving a variable the user set as it is.
 */
import * as fs from 'fs';
import { fewerArenasReexec, type ProcessFacts } from '../../backend-emulator/malloc-arenas';
import { http, spawnListening } from '../../support/cli-process';
import { compiledPackage } from '../../support/compiled';
import * as path from 'path';
import { cliStarterOfThisFile } from '../support/cli-processes';

jest.setTimeout(60_000);

const linuxNode: ProcessFacts = {
  platform: 'linux',
  env: { PATH: '/usr/bin', HOME: '/home/u' },
  execPath: '/opt/node/bin/node',
  execArgv: ['--require', '/tmp/preload.js'],
  argv: ['/opt/node/bin/node', '/app/dist/backend-emulator/cli.js', '--port', '0'],
  canExecve: true,
  glibc: true,
};

describe('when the entry point starts again', () => {
  test('on Linux with glibc and process.execve, without the variables: the same node, flags, script and arguments, with two arenas and fixed thresholds', () => {
    expect(fewerArenasReexec(linuxNode)).toEqual({
      file: '/opt/node/bin/node',
      args: ['/opt/node/bin/node', '--require', '/tmp/preload.js', '/app/dist/backend-emulator/cli.js', '--port', '0'],
      env: { PATH: '/usr/bin', HOME: '/home/u', MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '1048576', MALLOC_TRIM_THRESHOLD_: '4194304' },
    });
  });

  test('never when one of the variables is set (by the user, or by the re-exec itself), nor off Linux, without execve or without glibc', () => {
    expect(fewerArenasReexec({ ...linuxNode, env: { ...linuxNode.env, MALLOC_ARENA_MAX: '8' } })).toBeUndefined();
    expect(fewerArenasReexec({ ...linuxNode, env: { ...linuxNode.env, MALLOC_ARENA_MAX: '' } })).toBeUndefined();
    expect(fewerArenasReexec({ ...linuxNode, env: { ...linuxNode.env, MALLOC_MMAP_THRESHOLD_: '131072' } })).toBeUndefined();
    expect(fewerArenasReexec({ ...linuxNode, env: { ...linuxNode.env, MALLOC_TRIM_THRESHOLD_: '0' } })).toBeUndefined();
    expect(fewerArenasReexec({ ...linuxNode, platform: 'darwin' })).toBeUndefined();
    expect(fewerArenasReexec({ ...linuxNode, canExecve: false })).toBeUndefined();
    expect(fewerArenasReexec({ ...linuxNode, glibc: false })).toBeUndefined();
  });
});

/** The environment a running process was started with (its image's, so after any re-exec). */
function environOf(pid: number): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')) {
    const eq = pair.indexOf('=');
    if (eq > 0) env[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return env;
}

const execve = typeof (process as { execve?: unknown }).execve === 'function';
const glibc = process.platform === 'linux' && /\/libc\.so\.6$/m.test(fs.readFileSync('/proc/self/maps', 'utf8'));
const canReexec = process.platform === 'linux' && execve && glibc;
// Skips decided here, with their reason: the re-exec needs Linux's /proc, glibc and process.execve
// (Node >= 22.15), and a jest started with the variable set would not show the default.
const userSet = ['MALLOC_ARENA_MAX', 'MALLOC_MMAP_THRESHOLD_', 'MALLOC_TRIM_THRESHOLD_'].some((name) => process.env[name] !== undefined);
const whenReexecs = canReexec && !userSet ? describe : describe.skip;
if (!canReexec) console.warn('malloc-arenas.process.test: skipped, needs Linux with glibc and process.execve (Node >= 22.15)');
else if (userSet) console.warn('malloc-arenas.process.test: skipped, a MALLOC_ variable is set in the test environment');

whenReexecs('the compiled entry points', () => {
  const start = cliStarterOfThisFile();

  test('the CLI serves in the process it was started as, with its malloc settings, and nothing on stderr', async () => {
    const p = await start(['--port', '0', '--in-memory']);
    const env = environOf(p.child.pid as number);
    expect([env.MALLOC_ARENA_MAX, env.MALLOC_MMAP_THRESHOLD_, env.MALLOC_TRIM_THRESHOLD_]).toEqual(['2', '1048576', '4194304']);
    expect((await http(`${p.url}/healthz`, 'GET')).status).toBe(200);
    expect(p.stderr()).toBe('');
    expect(p.stdout()).toBe(`listening on ${p.url}\n`);
  });

  test('a MALLOC_ARENA_MAX the user set is kept, and malloc left as the user chose it', async () => {
    const p = await start(['--port', '0', '--in-memory'], { MALLOC_ARENA_MAX: '4' });
    const env = environOf(p.child.pid as number);
    expect([env.MALLOC_ARENA_MAX, env.MALLOC_MMAP_THRESHOLD_, env.MALLOC_TRIM_THRESHOLD_]).toEqual(['4', undefined, undefined]);
  });

  test('google-native-local serve starts again the same way', async () => {
    const p = await spawnListening([path.join(compiledPackage(), 'backend-emulator', 'commands', 'main.js'), 'serve', '--port', '0', '--in-memory']);
    try {
      expect(environOf(p.child.pid as number).MALLOC_MMAP_THRESHOLD_).toBe('1048576');
      expect((await http(`${p.url}/healthz`, 'GET')).status).toBe(200);
      expect(p.stderr()).toBe('');
    } finally {
      p.child.kill('SIGKILL');
      await p.exited;
    }
  });
});
