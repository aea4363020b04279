/**
 * A jest test environment that writes each test file's CPU time, one JSON line per file, to the
 * file named by `CPU_LOG`: `{ file, pid, n, own, kids, wall, heapMB }` (`own`: the worker process's user +
 * system seconds over the file, its worker threads included; `kids`: those of the child processes
 * it reaped; `n`: the file's place in its worker, the first paying for a cold V8). CPU, not wall
 * time: load from other runs moves it much less. Linux only (`/proc/self/stat`).
 *
 *     CPU_LOG=/tmp/quick.jsonl npm run test:quick -- --testEnvironment ./tests/support/cpu-environment.ts
 *
 * With `CPU_LOG_TESTS` set as well, each test gets a line of its own too, `{ file, test, own, wall }`:
 * the CPU of the test with its own hooks (`beforeEach`, `afterEach`), the worker threads it ran
 * included; what `beforeAll` and module loading cost is only in the file's line.
 */
import * as fs from 'node:fs';
import { TestEnvironment } from 'jest-environment-node';
import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import type { Circus } from '@jest/types';

const TICKS_PER_SECOND = 100;

/** User + system seconds of this process and of its reaped children. */
function cpuSeconds(): { own: number; kids: number } {
  // The fields after the command name (which may hold spaces, hence the split on ") ").
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  const ticks = (at: number) => Number(fields[at]);
  return { own: (ticks(11) + ticks(12)) / TICKS_PER_SECOND, kids: (ticks(13) + ticks(14)) / TICKS_PER_SECOND };
}

let filesInWorker = 0;

export default class CpuEnvironment extends TestEnvironment {
  private readonly start: { own: number; kids: number };
  private readonly startedAt: bigint;
  private readonly file: string;
  private readonly place: number;

  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    // Read before the environment is set up: its set-up (a new V8 context) is part of the file's cost.
    const start = cpuSeconds();
    const startedAt = process.hrtime.bigint();
    super(config, context);
    this.start = start;
    this.startedAt = startedAt;
    this.file = context.testPath;
    this.place = ++filesInWorker;
  }

  private testStart: { own: number; wall: bigint } | undefined;

  handleTestEvent(event: Circus.Event): void {
    const log = process.env.CPU_LOG;
    if (!log || !process.env.CPU_LOG_TESTS) return;
    if (event.name === 'test_start') {
      this.testStart = { own: cpuSeconds().own, wall: process.hrtime.bigint() };
    } else if (event.name === 'test_done' && this.testStart) {
      const names: string[] = [];
      for (let block: Circus.DescribeBlock | undefined = event.test.parent; block && block.parent; block = block.parent) names.unshift(block.name);
      const line = {
        file: this.file.replace(/.*\/tests\//, ''),
        test: [...names, event.test.name].join(' > '),
        own: Number((cpuSeconds().own - this.testStart.own).toFixed(2)),
        wall: Number(process.hrtime.bigint() - this.testStart.wall) / 1e9,
      };
      fs.appendFileSync(log, `${JSON.stringify(line)}\n`);
      this.testStart = undefined;
    }
  }

  override async teardown(): Promise<void> {
    await super.teardown();
    const log = process.env.CPU_LOG;
    if (!log) return;
    const end = cpuSeconds();
    const line = {
      file: this.file.replace(/.*\/tests\//, ''),
      pid: process.pid,
      n: this.place,
      own: Number((end.own - this.start.own).toFixed(2)),
      kids: Number((end.kids - this.start.kids).toFixed(2)),
      wall: Number(process.hrtime.bigint() - this.startedAt) / 1e9,
      // The worker's live heap after the file (MB): what each full collection of the next files marks.
      heapMB: Math.round(process.memoryUsage().heapUsed / 1e6),
    };
    fs.appendFileSync(log, `${JSON.stringify(line)}\n`);
  }
}
