/**
 * The emulator's CLI compiled from the current sources, and child processes running it (or any
 * server that prints `listening on URL`): used by the CLI tests and the benchmarks alike.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'child_process';
import * as path from 'path';
import { compiledPackage, ROOT } from './compiled';

export { ROOT };

/** The emulator's CLI, from the package compiled once per source state (support/compiled.ts). */
export function compiledCli(): string {
  return path.join(compiledPackage(), 'backend-emulator', 'cli.js');
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
