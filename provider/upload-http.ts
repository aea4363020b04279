/**
 * A streamed PUT over the network (node:http / node:https), for signed upload URLs: the body is
 * piped as it is read, with its Content-Length (object storage and the emulator both take a
 * declared length; a chunked body would also be read by the emulator, not by every store).
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { TransportResponse, UploadRequest } from './client';

export function putStream(req: UploadRequest): Promise<TransportResponse> {
  const url = new URL(req.url);
  const send = url.protocol === 'https:' ? https.request : url.protocol === 'http:' ? http.request : undefined;
  if (!send) return Promise.reject(new Error(`cannot upload to a ${url.protocol} URL: only http and https`));
  return new Promise((resolve, reject) => {
    const request = send(url, { method: 'PUT', headers: { ...req.headers, 'content-length': String(req.length) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    request.on('error', reject);
    req.body.on('error', (err: Error) => {
      request.destroy(err);
      reject(err);
    });
    req.body.pipe(request);
  });
}
