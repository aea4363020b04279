/**
 * The compiled CLI as a user runs it: flags, the `listening on` line, one process per data dir,
 * SIGTERM on an idle server. Killing it mid-write is cli.kill.test.ts.
 */
import * as fs from 'fs';
import * as httpModule from 'http';
import * as path from 'path';
import { LOCK_FILE_NAME } from '../../backend-emulator/store/lock';
import { http, runCli } from '../../support/cli-process';
import { tempDir } from '../../support/temp-dir';
import { cliStarterOfThisFile } from '../support/cli-processes';
import { PARENT } from '../support/networkservices';

jest.setTimeout(60_000);

const start = cliStarterOfThisFile();

describe('flags', () => {
  test('--help prints the usage and exits 0', async () => {
    const res = await runCli(['--help']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('--data-dir');
    expect(res.stdout).toContain('EMULATOR_PORT');
  });

  test('an unknown flag, a bad port or a bad log level exits 2 with the usage', async () => {
    for (const args of [['--nope'], ['--port', 'abc'], ['--port', '70000'], ['--log-level', 'loud'], ['positional']]) {
      const res = await runCli(args);
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(/^error: /);
      expect(res.stderr).toContain('Usage:');
      expect(res.stdout).toBe('');
    }
  });

  test('a bad --auth file exits 2 naming the file', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'auth.json');
    fs.writeFileSync(file, '{"tokens": {"t": "alice"}}');
    const res = await runCli(['--auth', file, '--in-memory', '--port', '0']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(file);
  });
});

describe('serving', () => {
  test('prints exactly one line, `listening on http://HOST:PORT`, and serves; SIGTERM exits 0 and releases the lock', async () => {
    const dir = tempDir();
    const p = await start(['--port', '0', '--data-dir', dir]);
    expect(p.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect((await http(`${p.url}/healthz`, 'GET')).status).toBe(200);
    expect(fs.existsSync(path.join(dir, LOCK_FILE_NAME))).toBe(true);
    p.child.kill('SIGTERM');
    const { code } = await p.exited;
    expect(code).toBe(0);
    expect(p.stdout()).toBe(`listening on ${p.url}\n`);
    expect(fs.existsSync(path.join(dir, LOCK_FILE_NAME))).toBe(false);
  });

  // The signal handlers were installed after the line was written: a supervisor signalling the
  // moment it read the line ended the process by SIGTERM's default action 5 and 9 times in 20.
  test('SIGTERM sent the moment `listening on` is read exits 0, every time of ten', async () => {
    for (let attempt = 1; attempt <= 10; attempt++) {
      const p = await start(['--port', '0', '--in-memory']);
      p.child.kill('SIGTERM');
      expect({ attempt, ...(await p.exited) }).toEqual({ attempt, code: 0, signal: null });
    }
  }, 120_000);

  test('environment twins: EMULATOR_PORT, EMULATOR_DATA_DIR', async () => {
    const dir = tempDir();
    const p = await start([], { EMULATOR_PORT: '0', EMULATOR_DATA_DIR: dir });
    expect(fs.existsSync(path.join(dir, 'emulator.sqlite'))).toBe(true);
    expect((await http(`${p.url}/healthz`, 'GET')).status).toBe(200);
  });

  test('with --auth, a request without a token is 401; a token without the permission 403; the admin token passes', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'auth.json');
    fs.writeFileSync(file, JSON.stringify({ tokens: { 'tok-a': 'user:a@example.com' }, adminTokens: ['tok-admin'] }));
    const p = await start(['--port', '0', '--in-memory', '--auth', file]);
    const res = await http(`${p.url}/v1/${PARENT}/endpointPolicies`, 'GET');
    expect(res.status).toBe(401);
    expect(res.body.error.status).toBe('UNAUTHENTICATED');
    const denied = await http(`${p.url}/v1/${PARENT}/endpointPolicies`, 'GET', undefined, { authorization: 'Bearer tok-a' });
    expect([denied.status, denied.body.error.message]).toEqual([
      403,
      `Permission 'networkservices.endpointPolicies.list' denied on resource '${PARENT}' (or it may not exist).`,
    ]);
    expect((await http(`${p.url}/v1/${PARENT}/endpointPolicies`, 'GET', undefined, { authorization: 'Bearer tok-admin' })).status).toBe(200);
  });
});

describe('data directory', () => {
  test('a second process on the same data dir is refused with a clear message, exit 1; the first keeps serving', async () => {
    const dir = tempDir();
    const first = await start(['--port', '0', '--data-dir', dir]);
    const second = await runCli(['--port', '0', '--data-dir', dir]);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(dir);
    expect(second.stderr).toContain(`pid ${first.child.pid}`);
    expect(second.stderr).toMatch(/in use/);
    expect(second.stdout).toBe('');
    expect((await http(`${first.url}/healthz`, 'GET')).status).toBe(200);
  });

  test('an unusable data dir exits 1 naming the path', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'file');
    fs.writeFileSync(file, '');
    const res = await runCli(['--port', '0', '--data-dir', path.join(file, 'sub')]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(path.join(file, 'sub'));
  });
});

describe('exposure', () => {
  test('listening on a non-loopback address without --auth logs a warning (to stderr; stdout stays one line)', async () => {
    const p = await start(['--port', '0', '--in-memory', '--host', '0.0.0.0']);
    expect(p.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // The warning is written after 'listening on': wait for it on stderr (or for the process to end).
    await new Promise<void>((resolve) => {
      const check = () => {
        if (/non-loopback/.test(p.stderr()) || p.child.exitCode !== null) done();
      };
      const done = () => {
        p.child.stderr?.off('data', check);
        p.child.off('exit', done);
        resolve();
      };
      p.child.stderr?.on('data', check);
      p.child.on('exit', done);
      check();
    });
    expect(p.stderr()).toMatch(/non-loopback/);
    expect(p.stdout()).toBe(`listening on ${p.url}\n`);
  });

  test('--allow-host (repeatable) and EMULATOR_ALLOW_ORIGINS: those hosts and that origin are answered; others are 403', async () => {
    const p = await start(['--port', '0', '--in-memory', '--allow-host', 'emu.test', '--allow-host', '.corp.test'], {
      EMULATOR_ALLOW_ORIGINS: 'http://localhost:3000',
    });
    const port = new URL(p.url).port;
    const status = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = httpModule.get({ host: '127.0.0.1', port, path: '/healthz', headers }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
      });
    expect(await status({ host: `emu.test:${port}` })).toBe(200);
    expect(await status({ host: `ci.corp.test:${port}` })).toBe(200);
    expect(await status({ host: `evil.example:${port}` })).toBe(403);
    expect(await status({ origin: 'http://localhost:3000' })).toBe(200);
    expect(await status({ origin: 'http://localhost:3001' })).toBe(403);
  });

  test('--allow-origin that is not an origin exits 2 naming the flag', async () => {
    const res = await runCli(['--port', '0', '--in-memory', '--allow-origin', 'localhost:3000/app']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--allow-origin');
  });
});
