/**
 * IAM condition expressions evaluated for a permission check (`--auth`), each within a time limit.
 *
 * A condition is written by any caller who may set an IAM policy, and evaluated on the request
 * thread by every request its binding could grant. CEL's `matches()` is a JavaScript regular
 * expression here (Google's is RE2, which never backtracks): a binding on an endpoint policy with
 * `resource.name.matches("(.*a){12}b")` held the request thread for good at the first `get` of
 * that policy, and the emulator answered no one (nor /healthz) again. Nested macros (`all`,
 * `exists`) over long lists are the other way to make one evaluation run for minutes.
 *
 * So each evaluation runs under `vm`'s execution time limit, which interrupts any synchronous
 * work, a regular expression's included. An expression that runs out of time grants nothing (as
 * an expression that cannot be evaluated), is logged once, and is never evaluated again until the
 * emulator restarts: its writer cannot make every request pay the limit.
 *
 * The limit is wall time, and a thread the machine does not schedule runs out of it too: on a
 * loaded machine (load 12 to 17 on two cores) a condition of microseconds was taken for a slow
 * one, and then denied until the restart. So an expression counts as slow only once the thread
 * has spent half the limit computing it (its own CPU time, over its runs out of time); until
 * then it was starved, and is evaluated again, up to STARVED_ATTEMPTS runs, after which it grants
 * nothing this once and is not remembered.
 *
 * The limit bounds one evaluation, not a request's: a policy may hold 20 conditions for each role
 * and member (a user, their domain, their groups), and an expression just under the limit is never
 * remembered. 80 distinct expressions of 60 ms each (a short backtracking `matches()`) held the
 * request thread 6.6 CPU-s at every `get` of their endpoint policy, and a `testIamPermissions`
 * asking for one permission 1,000 times evaluated every condition 1,000 times (7.3 CPU-s with
 * conditions of 0.1 ms). So a request's conditions are evaluated in one RequestConditions: each
 * expression once (the request has one resource and one `request.time`), and all of them within
 * REQUEST_CPU_MICROS of the thread's CPU; past it, the expressions not yet evaluated grant nothing
 * for this request.
 */
import * as vm from 'vm';
import type { ResourceAttributes } from './auth';

/** The longest one condition may evaluate for. Real conditions take microseconds. */
export const CONDITION_TIME_LIMIT_MS = 200;

/** How many expressions that ran out of time are remembered (oldest out first). */
const REMEMBERED_SLOW = 100;

/**
 * How many runs of an expression starved of CPU are tried, in all, before it grants nothing this
 * once. A slow expression is found within these at any share of a core above a sixteenth (the
 * runs' CPU time reaches SLOW_CPU_MICROS); a fast one needs one run that is scheduled at all.
 */
export const STARVED_ATTEMPTS = 8;

/** The CPU time, in microseconds, that the runs out of time of one expression must reach for it to be slow. */
const SLOW_CPU_MICROS = (CONDITION_TIME_LIMIT_MS * 1000) / 2;

/**
 * The thread CPU time all of one request's conditions may take together (real conditions take
 * about 0.1 ms each, vm's set-up included: this is about a thousand of them).
 */
export const REQUEST_CPU_MICROS = SLOW_CPU_MICROS;

/** The calling thread's CPU time in microseconds; undefined where Node cannot tell (before 22.19 and 23.9). */
export type ThreadCpuClock = () => number | undefined;

const threadCpuMicros: ThreadCpuClock = () => {
  const usage = typeof process.threadCpuUsage === 'function' ? process.threadCpuUsage() : undefined;
  return usage === undefined ? undefined : usage.user + usage.system;
};

/** Typed from the module itself: a type-only import is erased, so CEL still loads lazily. */
type CelEvaluate = (typeof import('@marcbachmann/cel-js'))['evaluate'];

export class ConditionEvaluator {
  /** Made at the first condition evaluated (most emulators never evaluate one). */
  private timed: TimedRun | undefined;
  /** Expressions that ran out of time once: they grant nothing from then on. */
  private readonly slow = new Set<string>();

  private readonly cpuClock: ThreadCpuClock;
  private readonly starvedAttempts: number;

  /**
   * `timing`: the thread's CPU clock and the runs a starved expression gets (tests play a starved
   * thread with them). `onBudgetSpent` is told, once a request, of a request whose conditions
   * spent REQUEST_CPU_MICROS, with its resource's name.
   */
  constructor(
    private readonly onTimeout: (expression: string) => void = () => undefined,
    timing: { cpuClock?: ThreadCpuClock; starvedAttempts?: number } = {},
    private readonly onBudgetSpent: (resourceName: string) => void = () => undefined,
  ) {
    this.cpuClock = timing.cpuClock ?? threadCpuMicros;
    this.starvedAttempts = timing.starvedAttempts ?? STARVED_ATTEMPTS;
  }

  /** The conditions of one request about one resource: see RequestConditions. */
  forRequest(resource: ResourceAttributes): RequestConditions {
    return new RequestConditions(this, resource, this.cpuClock, this.onBudgetSpent);
  }

  /** Whether the expression evaluates to true for the resource, now; false if it cannot be evaluated in time. */
  holds(expression: string, resource: ResourceAttributes): boolean {
    if (this.slow.has(expression)) return false;
    const timed = (this.timed ??= new TimedRun(loadCel()));
    const cpuBefore = this.cpuClock();
    for (let attempt = 1; ; attempt++) {
      try {
        return timed.run((evaluate) => evaluate(expression, { request: { time: new Date() }, resource })) === true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') return false;
        const cpuAfter = this.cpuClock();
        // Without the thread's clock (an older Node), every run out of time counts as slow.
        if (cpuBefore === undefined || cpuAfter === undefined || cpuAfter - cpuBefore >= SLOW_CPU_MICROS) {
          this.remember(expression);
          return false;
        }
        if (attempt >= this.starvedAttempts) return false;
      }
    }
  }

  private remember(expression: string): void {
    if (this.slow.size >= REMEMBERED_SLOW) this.slow.delete(this.slow.values().next().value as string);
    this.slow.add(expression);
    this.onTimeout(expression);
  }
}

/**
 * The conditions one request meets, about its one resource: each expression is evaluated once,
 * and all of them within REQUEST_CPU_MICROS of the thread's CPU time (wall time where Node has no
 * thread clock). Once the budget is spent, an expression not evaluated yet grants nothing, this
 * once; it is not remembered as slow, since it may be fast.
 */
export class RequestConditions {
  private readonly results = new Map<string, boolean>();
  private spentMicros = 0;
  private told = false;

  constructor(
    private readonly evaluator: ConditionEvaluator,
    private readonly resource: ResourceAttributes,
    private readonly cpuClock: ThreadCpuClock,
    private readonly onBudgetSpent: (resourceName: string) => void,
  ) {}

  /** Whether the expression holds for this request's resource; false once the request's budget is spent. */
  holds(expression: string): boolean {
    const known = this.results.get(expression);
    if (known !== undefined) return known;
    if (this.spentMicros >= REQUEST_CPU_MICROS) {
      if (!this.told) this.onBudgetSpent(this.resource.name);
      this.told = true;
      return false;
    }
    const before = this.now();
    const result = this.evaluator.holds(expression, this.resource);
    this.spentMicros += this.now() - before;
    this.results.set(expression, result);
    return result;
  }

  private now(): number {
    return this.cpuClock() ?? performance.now() * 1000;
  }
}

/**
 * CEL's evaluate, loaded and run once outside any time limit: its first evaluation sets up the
 * library (6 ms quiet, more under load), which must not count against a condition's limit.
 */
function loadCel(): CelEvaluate {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const evaluate = (require('@marcbachmann/cel-js') as typeof import('@marcbachmann/cel-js')).evaluate;
  evaluate('request.time < timestamp("2001-01-01T00:00:00Z") || resource.name.startsWith("projects/")', {
    request: { time: new Date() },
    resource: { name: 'projects/p', type: 'cloudresourcemanager.googleapis.com/Project', service: 'cloudresourcemanager.googleapis.com' },
  });
  return evaluate;
}

/**
 * Runs a function under `vm`'s execution time limit: one context and one script, made once; the
 * script calls the function at hand. Throws ERR_SCRIPT_EXECUTION_TIMEOUT past the limit.
 */
class TimedRun {
  private readonly sandbox = vm.createContext({ work: undefined as (() => unknown) | undefined });
  private readonly script = new vm.Script('work()');

  constructor(private readonly evaluate: CelEvaluate) {}

  run(work: (evaluate: CelEvaluate) => unknown): unknown {
    this.sandbox.work = () => work(this.evaluate);
    try {
      return this.script.runInContext(this.sandbox, { timeout: CONDITION_TIME_LIMIT_MS });
    } finally {
      this.sandbox.work = undefined;
    }
  }
}
