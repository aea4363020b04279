/**
 * The emulator's CLI compiled from the current sources, and child processes running it (or any
 * server that prints `listening on URL`): used by the CLI tests and the benchmarks alike.
 */
import { spawn, execFileSync, type ChildProcessWithoutNullStreams } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';

/** The repository's root folder. */
export const ROOT = path.resolve(__dirname, '..');

function sourceFingerprint(): string {
  const hash = crypto.createHash('sha256');
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (/\.(ts|json)$/.test(entry.name)) hash.update(p).update(String(fs.statSync(p).mtimeMs));
    }
  };
  walk(path.join(ROOT, 'backend-emulator'));
  walk(path.join(ROOT, 'schemas'));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The CLI compiled from the current sources (type checks are the job of `tsc --noEmit`; this is
 * a fast `--noCheck` emit), cached under node_modules/.cache so node_modules resolve. Built once
 * per source state; concurrent jest workers build into private folders and rename.
 */
export function compiledCli(): string {
  const cacheRoot = path.join(ROOT, 'node_modules', '.cache', 'gnl-emulator-cli');
  const dir = path.join(cacheRoot, sourceFingerprint());
  const cli = path.join(dir, 'backend-emulator', 'cli.js');
  if (fs.existsSync(path.join(dir, '.complete'))) return cli;
  const tmp = `${dir}.${process.pid}.${Date.now()}`;
  fs.mkdirSync(cacheRoot, { recursive: true });
  try {
    execFileSync(
      process.execPath,
      [
        require.resolve('typescript/bin/tsc'),
        '-p',
        path.join(ROOT, 'tsconfig.json'),
        '--outDir',
        tmp,
        '--noCheck',
        '--declaration',
        'false',
        '--sourceMap',
        'false',
      ],
      { cwd: ROOT, stdio: 'pipe' },
    );
  } catch (err) {
    // tsc exits non-zero on errors it still emits around; only a missing cli.js is fatal.
    if (!fs.existsSync(path.join(tmp, 'backend-emulator', 'cli.js'))) throw err;
  }
  fs.writeFileSync(path.join(tmp, '.complete'), '');
  try {
    fs.renameSync(tmp, dir);
  } catch {
    fs.rmSync(tmp, { recursive: true, force: true }); // another worker won the race
  }
  // Drop builds of older source states (an hour old: no running test can still use them).
  for (const old of fs.readdirSync(cacheRoot)) {
    const p = path.join(cacheRoot, old);
    if (p !== dir && Date.now() - fs.statSync(p).mtimeMs > 3_600_000) fs.rmSync(p, { recursive: true, force: true });
  }
  return cli;
}

export interface CliProcess {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawns the compiled CLI and resolves when it prints its `listening on` line. */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 15_000): Promise<CliProcess> {
  return spawnListening([compiledCli(), ...args], env, timeoutMs);
}

/**
 * Spawns `node ...nodeArgs` (the CLI, or any server that prints `listening on URL` when ready,
 * such as the benchmarks' bare fastify) and resolves when it prints that line.
 */
export function spawnListening(nodeArgs: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 15_000): Promise<CliProcess> {
  const child = spawn(process.execPath, nodeArgs, { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'pipe' });
  let out = '';
  let err = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI did not print 'listening on' within ${timeoutMs} ms; stderr: ${err}`));
    }, timeoutMs);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)\n/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[1], stdout: () => out, stderr: () => err, exited });
      }
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`CLI exited (${code ?? signal}) before listening; stderr: ${err}`), { code, stderr: err, stdout: out }));
    });
  });
}

/** Runs the compiled CLI to completion (for usage errors and refusals). */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 15_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const cli = compiledCli();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'pipe' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`CLI did not exit within ${timeoutMs} ms: ${stdout} ${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** HTTP JSON request to a listening emulator. */
export async function http(url: string, method: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(url, {
    method,
    headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}
