/** Shared helpers of the emulator tests. */
import { spawn, execFileSync, type ChildProcessWithoutNullStreams } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { FastifyInstance } from 'fastify';
import { call, type Res } from './inject';
export { call, type Res } from './inject';
import { buildEmulatorApp, type EmulatorAppOptions } from '../../backend-emulator/app';

export const ROOT = path.resolve(__dirname, '..', '..');
export const PARENT = 'projects/p1/locations/global';
export const EP_TYPE = 'type.googleapis.com/google.cloud.networkservices.v1.EndpointPolicy';

export function policyName(id: string, parent = PARENT): string {
  return `${parent}/endpointPolicies/${id}`;
}

export const MATCHER = {
  metadataLabelMatcher: {
    metadataLabelMatchCriteria: 'MATCH_ANY',
    metadataLabels: [{ labelName: 'app', labelValue: 'web' }],
  },
};

export function endpointPolicyBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'SIDECAR_PROXY', endpointMatcher: MATCHER, ...extra };
}

/**
 * An in-memory app with only the networkservices service: these tests cover the core and
 * Network Services, and must not depend on the state of other services' modules.
 */
export function newApp(options: EmulatorAppOptions = {}): FastifyInstance {
  return buildEmulatorApp({ inMemory: true, logLevel: 'silent', builtinServices: ['networkservices'], ...options });
}

export async function createPolicy(
  app: FastifyInstance,
  id: string,
  body = endpointPolicyBody(),
  parent = PARENT,
  headers: Record<string, string> = {},
): Promise<Res> {
  return call(app, 'POST', `/v1/${parent}/endpointPolicies?endpointPolicyId=${id}`, body, headers);
}

export async function getIam(app: FastifyInstance, resource: string, version?: number, headers: Record<string, string> = {}): Promise<Res> {
  const q = version === undefined ? '' : `?options.requestedPolicyVersion=${version}`;
  return call(app, 'GET', `/v1/${resource}:getIamPolicy${q}`, undefined, headers);
}

export async function setIam(app: FastifyInstance, resource: string, body: unknown, headers: Record<string, string> = {}): Promise<Res> {
  return call(app, 'POST', `/v1/${resource}:setIamPolicy`, body, headers);
}

/** Asserts the Google error shape and returns the error object. */
export function expectGoogleError(res: Res, code: number, status: string): { code: number; message: string; status: string; details: any[] } {
  if (res.status !== code || res.body?.error?.status !== status) {
    throw new Error(`expected ${code} ${status}, got ${res.status}: ${res.raw}`);
  }
  const error = res.body.error;
  expect(Object.keys(res.body)).toEqual(['error']);
  // ProtoJSON: `details` is left out when there are none.
  expect(Object.keys(error).sort()).toEqual(error.details === undefined ? ['code', 'message', 'status'] : ['code', 'details', 'message', 'status']);
  expect(error.code).toBe(code);
  expect(typeof error.message).toBe('string');
  if (error.details !== undefined) expect(error.details.length).toBeGreaterThan(0);
  return { ...error, details: error.details ?? [] };
}

/** The field violations of an INVALID_ARGUMENT error. */
export function fieldViolations(res: Res): Array<{ field: string; description: string }> {
  const detail = (res.body?.error?.details ?? []).find((d: any) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest');
  return detail?.fieldViolations ?? [];
}

export function tempDir(prefix = 'gnl-emu-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

// ---------------------------------------------------------------------------------------------
// The compiled CLI

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
