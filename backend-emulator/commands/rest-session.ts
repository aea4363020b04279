/**
 * What the commands that talk to an emulator or to Google share (`import`, `report`): the
 * endpoint from `--endpoint` or the environment, the provider's one REST client on it
 * (provider/client.ts, provider/backends.ts: no Pulumi, no second HTTP client), waiting for an
 * Operation with a status line on a terminal, and saying what went wrong when the answer was not
 * Google's.
 */
import { createBackend, ENDPOINT_ENV, parseEndpoint, tokenSetting, type EndpointSetting } from '../../provider/backends';
import { isNotFound, type GoogleApiCallError, type GoogleRestClient, type Operation } from '../../provider/client';
import { UsageError } from './local-files';

export const DEFAULT_ENDPOINT = 'http://127.0.0.1:8085';
/** The Migration Center version the commands speak. */
export const API = 'v1alpha1';

export interface RestSession {
  client: GoogleRestClient;
  endpoint: EndpointSetting;
}

/** The client of `--endpoint`, else GOOGLE_NATIVE_LOCAL_ENDPOINT, else the default emulator; a bad value is a usage error. */
export function connect(flag: string | undefined, env: NodeJS.ProcessEnv): RestSession {
  let endpoint;
  try {
    endpoint = parseEndpoint(flag ?? (env[ENDPOINT_ENV] || DEFAULT_ENDPOINT));
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (endpoint.kind === 'http') endpoint = { ...endpoint, token: tokenSetting(undefined, env) };
  return { client: createBackend(endpoint).client('migrationcenter'), endpoint };
}

/** A status line on standard error while the server works (a terminal only, like the progress bar). */
function statusLine(stream: NodeJS.WriteStream = process.stderr): { show(text: string): void; done(): void } {
  if (!stream.isTTY) return { show: () => undefined, done: () => undefined };
  return { show: (text) => stream.write(`\r\x1b[K${text}`), done: () => stream.write('\r\x1b[K') };
}

/** Polls `op` until done (an hour at most), showing `doing` and the server's status message. */
export async function wait(client: GoogleRestClient, op: Operation, doing: string): Promise<Operation> {
  const line = statusLine();
  try {
    return await client.waitForOperation(op, {
      apiVersion: API,
      timeoutMs: 60 * 60 * 1000,
      initialPollMs: 100,
      maxPollMs: 2000,
      onPoll: (current) => {
        const message = (current.metadata as { statusMessage?: string } | undefined)?.statusMessage;
        line.show(`${doing}${message ? `: ${message}` : ''}...`);
      },
    });
  } finally {
    line.done();
  }
}

/**
 * A NOT_FOUND in Google's error shape. Any other web server answers 404 to the API's paths too:
 * taking that for "no such resource" would go on to a wrong next step; it is reported as "not the
 * emulator" instead (failureMessage).
 */
export function isMissing(err: unknown): boolean {
  return isNotFound(err) && (err as GoogleApiCallError).googleShaped;
}

const START_HINT = 'start the emulator (`npm start` in a checkout, or `google-native-local serve`), or give --endpoint URL';

/** What to say about an answer that was not Google's: nothing listening, or another server. */
function notGoogleMessage(err: GoogleApiCallError, where: string, http: boolean): string {
  if (err.httpCode === 0) return `${err.apiMessage}${http ? `: is the emulator running? ${START_HINT}` : ''}`;
  const body = err.apiMessage.replace(/\s+/g, ' ').slice(0, 120);
  return (
    `${where} is not the emulator nor a Google API: it answered ${err.request} with HTTP ${err.httpCode} and a body that is not ` +
    `a Google API error (${body})${http ? `; ${START_HINT}` : ''}`
  );
}

/** The one line a command prints for a failed call: Google's error, or why the answer was not one. */
export function failureMessage(err: GoogleApiCallError, session: RestSession): string {
  return err.googleShaped ? err.message : notGoogleMessage(err, session.client.transport.description, session.endpoint.kind === 'http');
}
