/**
 * What the import benchmarks read from outside the emulator's process: the latency a concurrent
 * client sees, and the process's CPU time and resident memory (Linux /proc).
 */
import * as fs from 'node:fs';
import * as http from 'node:http';

export interface Latency {
  count: number;
  p50: number;
  p99: number;
  max: number;
}

/** The percentile `p` of `values` (nearest rank; NaN for none). */
function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Count, median, 99th percentile and maximum of latencies in ms. */
export function latencyOf(ms: number[]): Latency {
  return { count: ms.length, p50: percentile(ms, 50), p99: percentile(ms, 99), max: ms.length ? Math.max(...ms) : NaN };
}

/**
 * The benches' client for their polls and probes: node's own HTTP client with kept-alive
 * connections, not `fetch`. The client shares the machine's two cores with the emulator it
 * measures, at the same priority as the emulator's request thread, and undici's `fetch` costs two
 * to three times the CPU a request (365 to 565 us against 110 to 230 us of client CPU for a small
 * JSON answer over loopback, 3,000 sequential requests each, 2026-11-27): with two probes every
 * 10 ms and an Operation poll every 20 ms, that was 0.1 to 0.15 of a core taken from the run it
 * measures. The requests sent, and their pace, are the same.
 */
const keptAlive = new http.Agent({ keepAlive: true });

/** One request; resolves with the status and the whole answer once its last byte has arrived. */
export function httpRequest(
  method: string,
  url: string,
  body?: string | Uint8Array,
  headers: http.OutgoingHttpHeaders = {},
): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method, agent: keptAlive, headers: body === undefined ? headers : { ...headers, 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A GET whose answer is kept as the chunks received: joining a large answer (a FULL view's 15.6 MB)
 * is a copy the caller makes once nothing else it times runs on this event loop.
 */
export function httpGetChunks(url: string): Promise<{ status: number; chunks: Buffer[] }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'GET', agent: keptAlive }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, chunks }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * A concurrent client: GETs `url` one after the other, 10 ms apart, until `stop()`; returns each
 * request's latency (ms), from the request's start to its answer's last byte. A function `url` is
 * asked before each request (undefined: not yet known, nothing sent).
 */
export async function probe(url: string | (() => string | undefined), stop: () => boolean): Promise<number[]> {
  const times: number[] = [];
  while (!stop()) {
    const target = typeof url === 'string' ? url : url();
    if (target) {
      const t0 = performance.now();
      await httpRequest('GET', target);
      times.push(performance.now() - t0);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  return times;
}

/** A `kB` field (`VmRSS:   1234 kB`) of a /proc text in bytes, or 0 when the text has none. */
function kbField(text: string, field: string): number {
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0) * 1024;
}

/** A `kB` field of a process's /proc status in bytes, or 0 when /proc cannot tell (the process ended, not Linux). */
function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    return kbField(fs.readFileSync(`/proc/${pid}/status`, 'utf8'), field);
  } catch {
    return 0;
  }
}

/** VmRSS of a process in bytes, or 0 when /proc cannot tell. */
export function processRssBytes(pid: number): number {
  return statusBytes(pid, 'VmRSS');
}

/** VmHWM (the peak of VmRSS) of a process in bytes, or 0 when /proc cannot tell. */
export function peakRssBytes(pid: number): number {
  return statusBytes(pid, 'VmHWM');
}

/**
 * What a process's resident memory is made of, in bytes (0 where /proc cannot tell): its own
 * memory (RssAnon: heaps, stacks, malloc's arenas) and the files mapped into it (RssFile: mostly the
 * node binary's code), and of those the part mapped as 2 MB pages (FilePmdMapped). The kernel maps
 * a file's page-cache pages 2 MB at a time when it holds them in 2 MB folios: the same node binary
 * was then 69 MB resident at idle instead of 34, and the emulator's every RSS figure 35 MB higher,
 * with nothing in the emulator changed (issue 27; docs/benchmarks.md).
 */
export interface RssParts {
  rss: number;
  anon: number;
  file: number;
  fileHugePages: number;
}

/** `pid`'s RssParts; its 2 MB mappings read only when `withHugePages` (smaps_rollup walks every mapping of the process). */
export function processRssParts(pid: number, withHugePages = true): RssParts {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const fileHugePages = withHugePages ? fileHugePagesBytes(pid) : 0;
    return { rss: kbField(status, 'VmRSS'), anon: kbField(status, 'RssAnon'), file: kbField(status, 'RssFile'), fileHugePages };
  } catch {
    return { rss: 0, anon: 0, file: 0, fileHugePages: 0 };
  }
}

/** The bytes of files `pid` maps as 2 MB pages, or 0 where /proc cannot tell (older kernels have no rollup). */
function fileHugePagesBytes(pid: number): number {
  try {
    return kbField(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'), 'FilePmdMapped');
  } catch {
    return 0;
  }
}

/** `parts` in MB, for a bench's line: "296 MB (own 205, files 91 of which 46 in 2 MB pages)". */
export function rssPartsText(parts: RssParts): string {
  const mb = (bytes: number): string => (bytes / 1e6).toFixed(0);
  return `${mb(parts.rss)} MB (own ${mb(parts.anon)}, files ${mb(parts.file)} of which ${mb(parts.fileHugePages)} in 2 MB pages)`;
}

/**
 * A process's RSS sampled every `intervalMs` until stopped: its peak with what it was made of, and
 * the peak of each step named by `step` (the step that holds the peak is where to cut).
 */
export class RssSampler {
  peak: RssParts;
  readonly start: RssParts;
  readonly stepPeaks: Record<string, number> = {};
  step = 'start';
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pid: number,
    intervalMs: number,
  ) {
    this.start = this.peak = processRssParts(pid);
    this.timer = setInterval(() => this.sample(), intervalMs);
  }

  /** One sample: the status alone, cheap, and the 2 MB mappings only for a new peak. */
  sample(): void {
    const parts = processRssParts(this.pid, false);
    if (parts.rss > this.peak.rss) this.peak = { ...parts, fileHugePages: fileHugePagesBytes(this.pid) };
    this.stepPeaks[this.step] = Math.max(this.stepPeaks[this.step] ?? 0, parts.rss);
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

/**
 * Resets a process's VmHWM to its VmRSS (Linux >= 4.0: `5` to /proc/<pid>/clear_refs, allowed on
 * one's own processes), so that `peakRssBytes` tells the peak from now on; false when not allowed.
 */
export function resetPeakRss(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** The CPU time (user + system) a process has used, in seconds (USER_HZ = 100 on Linux). */
export function processCpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * A bench's REST calls to a running emulator: `req` answers the parsed JSON (a string body is sent
 * as it is, anything else as JSON) and throws on any status but 200; `waitOp` polls an Operation
 * until it is done.
 */
export function emulatorRest(baseUrl: string): {
  req: (method: 'GET' | 'POST', url: string, body?: unknown) => Promise<any>;
  waitOp: (name: string) => Promise<any>;
} {
  const req = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
    const sent = body === undefined || typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body);
    const res = await httpRequest(method, `${baseUrl}${url}`, sent, sent !== undefined ? { 'content-type': 'application/json' } : {});
    const text = res.body.toString('utf8');
    if (res.status !== 200) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 500)}`);
    return JSON.parse(text);
  };
  const waitOp = async (name: string) => {
    for (;;) {
      const op = await req('GET', `/v1alpha1/${name}`);
      if (op.done) return op;
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return { req, waitOp };
}
