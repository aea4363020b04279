/**
 * Who may send a request at all, before any route or token is looked at: the emulator runs on a
 * developer's workstation next to a browser, and a web page must not drive it.
 *
 * - `Host` (DNS rebinding): a page of `evil.example` whose name is made to resolve to 127.0.0.1
 *   reaches the emulator as a same-origin page of its own and could read everything. Its requests
 *   carry `Host: evil.example`, so a Host that is not a loopback name or address, the address the
 *   emulator listens on, or one the user allowed (`--allow-host`) is refused. A missing Host (an
 *   HTTP/1.0 client; browsers always send one) is not a browser's request and passes.
 * - `Origin` (cross-site requests): a page may send a "simple" request (`fetch(url, {method:
 *   'POST', mode: 'no-cors'})`) without any preflight, and the browser attaches its `Origin`. A
 *   request whose Origin is neither the emulator's own (the console) nor one the user allowed
 *   (`--allow-origin`) is refused. A cross-site GET without an Origin (an `<img src>`) is told by
 *   `Sec-Fetch-Site`; a top-level navigation (someone opening the console from a link) passes.
 *
 * Google's clients (googleapis, gcloud, the provider, the CLI) send neither Origin nor
 * Sec-Fetch-* headers, and name the emulator's address as Host: nothing changes for them.
 *
 * An allowed foreign origin also gets CORS answers (its preflight, `Access-Control-Allow-Origin`),
 * so a web application under test in a browser can call the emulator once the user allows it.
 */
import * as os from 'os';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isLoopbackHost } from '../config';
import { GoogleApiError } from '../errors';

export interface RequestOriginRules {
  /** The address the emulator listens on (`--host`), when it listens on a socket. */
  listenHost?: string;
  /** Extra Host names (`--allow-host`): `name`, `.example.com` (the name and its subdomains), or `*` (any). */
  allowHosts?: readonly string[];
  /** Extra origins (`--allow-origin`): `http://localhost:3000`, or `*` (any). */
  allowOrigins?: readonly string[];
}

const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::', '[::]']);

/** `Host` header value -> its host name, lower-cased, without port or IPv6 brackets. */
export function hostName(host: string): string {
  const value = host.trim().toLowerCase();
  if (value.startsWith('[')) return value.slice(1, value.indexOf(']') > 0 ? value.indexOf(']') : undefined);
  const colon = value.indexOf(':');
  return colon >= 0 && value.indexOf(':', colon + 1) < 0 ? value.slice(0, colon) : value;
}

/** `http://HOST:PORT` in the form browsers send it (lower case, no trailing slash), or undefined. */
export function normalizeOrigin(value: string): string | undefined {
  if (value === '*') return value;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

/**
 * A Host header as RFC 9110 has it: a name or address (RFC 3986's reg-name, IPv4, or an IPv6
 * literal in brackets), then an optional `:port` of digits. Anything else is refused whatever its
 * name part: `localhost:80@evil` reads as `localhost` to `hostName`, and the emulator writes the Host
 * it was reached under into the URLs it answers (a data file's `signedUri`). A bare IPv6 address
 * (`::1`, which some clients send) stays readable.
 */
const WELL_FORMED_HOST = /^(?:\[[0-9a-f:.]+\]|[a-z0-9._~%!$&'()*+,;=-]*)(?::[0-9]*)?$|^[0-9a-f:.]+$/i;

/** Addresses of this machine's interfaces: the Host a client on the network names when `--host 0.0.0.0`. */
function interfaceAddresses(): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(os.networkInterfaces())) {
    for (const address of list ?? []) out.add(address.address.toLowerCase().replace(/%.*$/, ''));
  }
  return out;
}

function hostRule(rules: RequestOriginRules): (name: string) => boolean {
  const listen = rules.listenHost ? hostName(rules.listenHost) : undefined;
  const wildcard = rules.listenHost !== undefined && WILDCARD_ADDRESSES.has(rules.listenHost);
  const own = wildcard ? interfaceAddresses() : new Set<string>();
  const allowed = (rules.allowHosts ?? []).map((h) => h.trim().toLowerCase()).filter((h) => h !== '');
  return (name) =>
    isLoopbackHost(name) ||
    name === listen ||
    own.has(name) ||
    allowed.some((a) => a === '*' || a === name || (a.startsWith('.') && (name.endsWith(a) || name === a.slice(1))));
}

function refused(message: string): GoogleApiError {
  return new GoogleApiError('PERMISSION_DENIED', message);
}

const CORS_METHODS = 'GET, POST, PUT, PATCH, DELETE';
const CORS_EXPOSED = 'x-request-id';

/** How many distinct Host values the guard remembers its verdict for (a client sends one or two). */
const REMEMBERED_HOSTS = 64;

/**
 * The guard of the rules: refuses (throws) a request from a foreign page, answers an allowed
 * origin's CORS preflight itself (and returns true: the request ends there), else returns false.
 * It runs first in the app's one onRequest hook (app.ts), before any other rule reads the request.
 */
export function requestOriginGuard(rules: RequestOriginRules): (request: FastifyRequest, reply: FastifyReply) => boolean {
  const hostRuleOf = hostRule(rules);
  const allowedOrigins = new Set((rules.allowOrigins ?? []).map((o) => normalizeOrigin(o) ?? o));
  const anyOrigin = allowedOrigins.has('*');
  // The verdict for a Host value, remembered: every request of a client names the same Host, and
  // the rule (a loopback test that parses the name as an address) is the guard's main cost.
  const hostVerdicts = new Map<string, boolean>();
  function hostAllowed(host: string): boolean {
    let verdict = hostVerdicts.get(host);
    if (verdict === undefined) {
      verdict = WELL_FORMED_HOST.test(host.trim()) && hostRuleOf(hostName(host));
      if (hostVerdicts.size >= REMEMBERED_HOSTS) hostVerdicts.clear();
      hostVerdicts.set(host, verdict);
    }
    return verdict;
  }
  return guard;

  /** Refuses (throws) a request from a foreign page; true when it answered the request itself (a CORS preflight). */
  function guard(request: FastifyRequest, reply: FastifyReply): boolean {
    const host = request.headers.host;
    if (host !== undefined && !hostAllowed(host)) {
      throw refused(
        `The emulator does not answer requests for host '${hostName(host).slice(0, 100)}' (a web page using DNS rebinding sends such requests). Start it with --allow-host NAME to reach it under that name.`,
      );
    }
    const origin = request.headers.origin;
    if (origin === undefined) {
      const site = request.headers['sec-fetch-site'];
      if ((site === 'cross-site' || site === 'same-site') && request.headers['sec-fetch-mode'] !== 'navigate') {
        throw refused('The emulator does not answer requests sent by web pages of other sites. Start it with --allow-origin ORIGIN to allow one.');
      }
      return false;
    }
    const own = host !== undefined && (origin.toLowerCase() === `http://${host.toLowerCase()}` || origin.toLowerCase() === `https://${host.toLowerCase()}`);
    if (own) return false;
    if (!anyOrigin && !allowedOrigins.has(normalizeOrigin(origin) ?? '')) {
      throw refused(
        `The emulator does not answer requests sent by web pages of other origins (Origin: ${origin.slice(0, 200)}). Start it with --allow-origin ${origin.slice(0, 200)} to allow that origin.`,
      );
    }
    // An allowed foreign origin: CORS, so its page may read the answers.
    reply.header('access-control-allow-origin', origin).header('vary', 'Origin').header('access-control-expose-headers', CORS_EXPOSED);
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      const headers = request.headers['access-control-request-headers'];
      reply.header('access-control-allow-methods', CORS_METHODS).header('access-control-max-age', '600');
      if (headers) reply.header('access-control-allow-headers', headers);
      reply.code(204).send();
      return true;
    }
    return false;
  }
}
