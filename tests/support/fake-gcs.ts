/**
 * A tiny GCS JSON API server for tests: object metadata, listing by prefix, media download.
 * Objects whose name contains `hang`, or whose `bucket/name` key is in `hang`, never finish
 * downloading (for cancel / delete / shutdown / hung-up reader tests); `hangingDownloads` lists
 * them, each with a promise that settles when its client closes the connection.
 */
import * as http from 'http';
import type { AddressInfo } from 'net';

export interface FakeGcs {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  objects: Map<string, Buffer>;
  requests: string[];
  /** Keys (`bucket/name`) whose downloads hang from now on. */
  hang: Set<string>;
  /** The downloads that hang, oldest first; `closed` settles when the client closes the connection. */
  hangingDownloads: Array<{ key: string; closed: Promise<void> }>;
  close(): Promise<void>;
}

export async function startFakeGcs(): Promise<FakeGcs> {
  const objects = new Map<string, Buffer>();
  const requests: string[] = [];
  const hanging = new Set<http.ServerResponse>();
  const hang = new Set<string>();
  const hangingDownloads: FakeGcs['hangingDownloads'] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const list = /^\/storage\/v1\/b\/([^/]+)\/o$/.exec(url.pathname);
    if (list) {
      const bucket = decodeURIComponent(list[1]);
      const prefix = url.searchParams.get('prefix') ?? '';
      const items = [...objects.entries()]
        .filter(([key]) => key.startsWith(`${bucket}/${prefix}`))
        .map(([key, data]) => ({ kind: 'storage#object', bucket, name: key.slice(bucket.length + 1), size: String(data.length) }));
      if (![...objects.keys()].some((k) => k.startsWith(`${bucket}/`)))
        return json(404, { error: { code: 404, message: 'The specified bucket does not exist.' } });
      return json(200, { kind: 'storage#objects', items });
    }
    const one = /^\/storage\/v1\/b\/([^/]+)\/o\/(.+)$/.exec(url.pathname);
    if (one) {
      const bucket = decodeURIComponent(one[1]);
      const name = decodeURIComponent(one[2]);
      const data = objects.get(`${bucket}/${name}`);
      if (!data) return json(404, { error: { code: 404, message: 'No such object.' } });
      if (url.searchParams.get('alt') === 'media') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        if (name.includes('hang') || hang.has(`${bucket}/${name}`)) {
          res.write(data.subarray(0, 10));
          hanging.add(res);
          hangingDownloads.push({ key: `${bucket}/${name}`, closed: new Promise<void>((resolve) => res.once('close', () => resolve())) });
          return;
        }
        return res.end(data);
      }
      return json(200, { kind: 'storage#object', bucket, name, size: String(data.length) });
    }
    json(404, { error: { code: 404, message: 'Not Found' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    objects,
    requests,
    hang,
    hangingDownloads,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
