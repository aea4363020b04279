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
 */
import * as vm from 'vm';
import type { ResourceAttributes } from './auth';

/** The longest one condition may evaluate for. Real conditions take microseconds. */
export const CONDITION_TIME_LIMIT_MS = 200;

/** How many expressions that ran out of time are remembered (oldest out first). */
const REMEMBERED_SLOW = 100;

/** Typed from the module itself: a type-only import is erased, so CEL still loads lazily. */
type CelEvaluate = (typeof import('@marcbachmann/cel-js'))['evaluate'];

export class ConditionEvaluator {
  /** Made at the first condition evaluated (most emulators never evaluate one). */
  private timed: TimedRun | undefined;
  /** Expressions that ran out of time once: they grant nothing from then on. */
  private readonly slow = new Set<string>();

  constructor(private readonly onTimeout: (expression: string) => void = () => undefined) {}

  /** Whether the expression evaluates to true for the resource, now; false if it cannot be evaluated in time. */
  holds(expression: string, resource: ResourceAttributes): boolean {
    if (this.slow.has(expression)) return false;
    const timed = (this.timed ??= new TimedRun(loadCel()));
    try {
      return timed.run((evaluate) => evaluate(expression, { request: { time: new Date() }, resource })) === true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') this.remember(expression);
      return false;
    }
  }

  private remember(expression: string): void {
    if (this.slow.size >= REMEMBERED_SLOW) this.slow.delete(this.slow.values().next().value as string);
    this.slow.add(expression);
    this.onTimeout(expression);
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
