/**
 * A recording HTTP proxy for the conformance suites: Google's client talks to the proxy, the
 * proxy forwards to the emulator and keeps every answer, so that a test can walk all of them
 * afterwards (for ProtoJSON default values) without touching the client or the emulator.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';
import { isGoogleApiUrl, protoJsonDefaults } from './protojson';

export interface RecordedAnswer {
  method: string;
  url: string;
  status: number;
  body: unknown;
}

export interface RecordingProxy {
  url: string;
  answers: RecordedAnswer[];
  /** Every default value found in a JSON answer of a Google API route, with where. */
  defaultsFound(): string[];
  close(): Promise<void>;
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const answers: RecordedAnswer[] = [];
  const server = http.createServer((req, res) => {
    const upstream = http.request(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (c: Buffer) => chunks.push(c));
      answer.on('end', () => {
        const raw = Buffer.concat(chunks);
        let body: unknown = raw.toString('utf8');
        if (String(answer.headers['content-type'] ?? '').includes('json') && raw.length > 0) body = JSON.parse(raw.toString('utf8'));
        answers.push({ method: req.method ?? 'GET', url: req.url ?? '/', status: answer.statusCode ?? 0, body });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.end(raw);
      });
    });
    upstream.on('error', (err) => {
      res.writeHead(502);
      res.end(String(err));
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    answers,
    defaultsFound: () =>
      answers.filter((a) => isGoogleApiUrl(a.url)).flatMap((a) => protoJsonDefaults(a.body).map((d) => `${a.method} ${a.url.split('?')[0]}: ${d}`)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
