/**
 * A Node script in a process of its own, for kill tests: its stdout watched until it says it is
 * where the test wants it, then killed with SIGKILL.
 */
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { tempDir } from '../../support/temp-dir';

export interface ScriptChild {
  /** Its stdout so far. */
  out(): string;
  /** Resolves once `ready(stdout so far)` holds; rejects, with its output, if the child ends first (`what`: what it was to do). */
  until(ready: (out: string) => boolean, what: string): Promise<void>;
  /** Kills it with SIGKILL; the signal it ended by. */
  killHard(): Promise<NodeJS.Signals | null>;
}

/** Starts `source` (CommonJS) under this process's Node, from a file in a temporary folder. */
export function runScript(source: string): ScriptChild {
  const script = path.join(tempDir(), 'child.js');
  fs.writeFileSync(script, source);
  const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  let out = '';
  let err = '';
  const waiters: Array<() => void> = [];
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    for (const check of waiters) check();
  });
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return {
    out: () => out,
    until: (ready, what) =>
      new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (ready(out)) resolve();
        };
        waiters.push(check);
        child.on('exit', () => reject(new Error(`the child ended before it would ${what}: ${out}${err}`)));
        check();
      }),
    killHard: () => {
      child.kill('SIGKILL');
      return exited;
    },
  };
}
