/**
 * kill -9 right after an import job with an inline payload is created (issue 27: the payload's
 * text is kept in files of its own, apart from the job's record): after the restart the job
 * answers the same payload and validates and runs from it. The compiled CLI, with a durable data
 * dir. Kill tests: run by `npm test`, left out of `test:quick`.
 */
import * as fs from 'fs';
import * as path from 'path';
import { http } from '../../../support/cli-process';
import { tempDir } from '../../../support/temp-dir';
import { cliStarterOfThisFile } from '../../support/cli-processes';
import { VM_HEADER, b64, csv, vmRow } from '../../support/migrationcenter';

jest.setTimeout(240_000);

const start = cliStarterOfThisFile();
const PARENT = 'projects/p1/locations/us-central1';

// 3,000 machines make a body of about 0.5 MB, parsed on the request thread; 9,000 about 1.6 MB, over
// LARGE_BODY_BYTES: read by the body worker, its text written to request-texts/ and moved.
test.each([3_000, 9_000])(
  'kill -9 just after a create with an inline payload of %i machines: on restart the job has its payload, and validates and runs from it',
  async (count) => {
    const dataDir = tempDir();
    const machines = Array.from({ length: count }, (_, i) => vmRow(`m-${i}`, `vm-${i}`));
    const inlinePayload = { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data: b64(csv(VM_HEADER, ...machines)) }] };

    const p = await start(['--port', '0', '--data-dir', dataDir]);
    expect((await http(`${p.url}/v1alpha1/${PARENT}/sources?sourceId=src`, 'POST', { type: 'SOURCE_TYPE_UPLOAD' })).status).toBe(200);
    const created = await http(`${p.url}/v1alpha1/${PARENT}/importJobs?importJobId=inline`, 'POST', { assetSource: `${PARENT}/sources/src`, inlinePayload });
    expect(created.status).toBe(200);
    p.child.kill('SIGKILL');
    expect((await p.exited).signal).toBe('SIGKILL');

    const again = await start(['--port', '0', '--data-dir', dataDir]);
    const get = async (url: string) => {
      const res = await http(`${again.url}${url}`, 'GET');
      expect(res.status).toBe(200);
      return res.body;
    };
    const until = async (verb: 'validate' | 'run') => {
      const op = await http(`${again.url}/v1alpha1/${PARENT}/importJobs/inline:${verb}`, 'POST', {});
      expect(op.status).toBe(200);
      for (;;) {
        const now = await get(`/v1alpha1/${op.body.name}`);
        if (now.done) return now;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    expect((await get(`/v1alpha1/${PARENT}/importJobs/inline`)).inlinePayload).toEqual(inlinePayload);
    expect((await until('validate')).error).toBeUndefined();
    expect((await until('run')).error).toBeUndefined();
    const job = await get(`/v1alpha1/${PARENT}/importJobs/inline`);
    expect(job.state).toBe('IMPORT_JOB_STATE_COMPLETED');
    expect(job.executionReport.framesReported).toBe(count);
    expect(fs.readdirSync(path.join(dataDir, 'request-texts'))).toEqual([]);
    again.child.kill('SIGTERM');
    await again.exited;
  },
);
