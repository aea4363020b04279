import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { startEmulator, type RunningEmulator } from '../../../backend-emulator';
import { importCommand } from '../../../backend-emulator/commands/import';
import { main } from '../../../backend-emulator/commands/main';
import { textSink } from '../../support/text-sink';
import { restApi } from '../../support/rest-api';

const FIXTURES = path.join(__dirname, '..', '..', 'fixtures', 'manual-csv');
const PARENT = 'projects/cli-project/locations/us-central1';

let emulator: RunningEmulator;

const api = restApi(() => emulator.url);

async function run(args: string[]): Promise<{ code: number; text: string }> {
  const out = textSink();
  const code = await importCommand(args, out, { GOOGLE_NATIVE_LOCAL_ENDPOINT: emulator.url });
  return { code, text: out.text };
}

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, inMemory: true });
  await api('POST', `/v1alpha1/${PARENT}/sources?sourceId=files`, {});
});
afterAll(() => emulator?.close());

describe('google-native-local import', () => {
  it.each([
    ['an id ending with -', 'projects/p/locations/l/importJobs/job-'],
    ['an upper-case id', 'projects/p/locations/l/importJobs/Job1'],
    ['an id of 64 characters', `projects/p/locations/l/importJobs/${'a'.repeat(64)}`],
    ['no importJobs segment', 'projects/p/locations/l/jobs/j1'],
  ])('refuses --job with %s (the resource id rule of http/names.ts), before any request', async (_what, job) => {
    await expect(run(['--job', job, path.join(FIXTURES, 'valid', 'basic')])).rejects.toThrow(
      /is not projects\/\{project\}\/locations\/\{location\}\/importJobs\/\{id\}/,
    );
  });

  it('creates the job, uploads each file as a data file, validates, runs, and exits 0 when COMPLETED', async () => {
    const job = `${PARENT}/importJobs/basic`;
    const { code, text } = await run(['--job', job, '--source', 'files', '--format', 'manual-csv', path.join(FIXTURES, 'valid', 'basic')]);
    expect(text).toContain(`created import job ${job}`);
    expect(text).toMatch(/uploaded .*vmInfo\.csv \(\d+ bytes, sha256 [0-9a-f]{12}\)/);
    expect(text).toContain('OK: no blocking errors (IMPORT_JOB_FORMAT_MANUAL_CSV)');
    expect(text).toMatch(/IMPORT_JOB_STATE_COMPLETED \(\d+ row\(s\)/);
    expect(code).toBe(0);
    const files = await api<{ importDataFiles: Array<{ name: string; displayName: string; state: string }> }>('GET', `/v1alpha1/${job}/importDataFiles`);
    expect(files.importDataFiles.map((f) => [f.displayName, f.state]).sort()).toEqual([
      ['diskInfo.csv', 'ACTIVE'],
      ['perfInfo.csv', 'ACTIVE'],
      ['tagInfo.csv', 'ACTIVE'],
      ['vmInfo.csv', 'ACTIVE'],
    ]);
    expect(files.importDataFiles.map((f) => f.name)).toContain(`${job}/importDataFiles/vm-info-csv`);
  });

  it("prints the validation's warnings once: a run without errors of its own adds no second report", async () => {
    const job = `${PARENT}/importJobs/with-infos`;
    const workbook = path.join(FIXTURES, '..', 'rvtools', 'BillSampleNextRvtoolsFinal.xlsx');
    const { code, text } = await run(['--job', job, '--source', 'files', '--format', 'rvtools-xlsx', workbook]);
    expect(code).toBe(0);
    expect(text).toMatch(/WARNING /);
    expect(text.split('OK: no blocking errors').length - 1).toBe(1);
    expect(text).not.toContain('Execution errors');
    expect(text).toMatch(/IMPORT_JOB_STATE_COMPLETED \(\d+ row\(s\)/);
  });

  it('a bad file: prints the row error, stops at FAILED_VALIDATION, exits 1', async () => {
    const job = `${PARENT}/importJobs/bad`;
    const { code, text } = await run([
      '--job',
      job,
      '--source',
      `${PARENT}/sources/files`,
      '--format',
      'IMPORT_JOB_FORMAT_MANUAL_CSV',
      path.join(FIXTURES, 'invalid', 'bad-int'),
    ]);
    expect(text).toContain('FAILED: the payload has blocking errors');
    expect(text).toMatch(/vmInfo\.csv:\n {2}ERROR {3}row 2 \(.*\): AllocatedProcessorCoreCount/);
    expect(text).toContain('IMPORT_JOB_STATE_FAILED_VALIDATION');
    expect(code).toBe(1);
    expect((await api<{ state: string }>('GET', `/v1alpha1/${job}`)).state).toBe('IMPORT_JOB_STATE_FAILED_VALIDATION');
  });

  it('--no-run stops at READY; an existing job gives the format of its data files', async () => {
    const job = `${PARENT}/importJobs/later`;
    await api('POST', `/v1alpha1/${PARENT}/importJobs?importJobId=later`, { assetSource: `${PARENT}/sources/files` });
    const first = await run(['--job', job, '--format', 'manual-csv', '--no-run', path.join(FIXTURES, 'valid', 'basic', 'vmInfo.csv')]);
    expect([first.code, first.text]).toEqual([0, expect.stringContaining('IMPORT_JOB_STATE_READY')]);
    const second = await run(['--job', job, '--no-run', path.join(FIXTURES, 'valid', 'basic', 'diskInfo.csv')]);
    expect(second.code).toBe(0);
    expect((await api<{ state: string }>('GET', `/v1alpha1/${job}`)).state).toBe('IMPORT_JOB_STATE_READY');
  });

  it('a missing source: exits 1 saying so, creates nothing; --create-source creates it (type UPLOAD) first', async () => {
    const job = `${PARENT}/importJobs/new-source`;
    const args = ['--job', job, '--source', 'fresh', '--format', 'manual-csv', '--no-run', path.join(FIXTURES, 'valid', 'basic')];
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect((await run(args)).code).toBe(1);
      const said = stderr.mock.calls.map((c) => String(c[0])).join('');
      expect(said).toContain(`source ${PARENT}/sources/fresh does not exist: create it first, or add --create-source`);
    } finally {
      stderr.mockRestore();
    }
    await expect(api('GET', `/v1alpha1/${job}`)).rejects.toThrow(/404/);
    await expect(api('GET', `/v1alpha1/${PARENT}/sources/fresh`)).rejects.toThrow(/404/);

    const { code, text } = await run([...args, '--create-source']);
    expect(text).toContain(`created source ${PARENT}/sources/fresh`);
    expect(code).toBe(0);
    expect(await api('GET', `/v1alpha1/${PARENT}/sources/fresh`)).toMatchObject({ type: 'SOURCE_TYPE_UPLOAD' });
    expect(await api('GET', `/v1alpha1/${job}`)).toMatchObject({ assetSource: `${PARENT}/sources/fresh`, state: 'IMPORT_JOB_STATE_READY' });
  });

  it('exits 2 on bad usage, naming what is missing', async () => {
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const file = path.join(FIXTURES, 'valid', 'basic', 'vmInfo.csv');
      expect(await main(['import', file])).toBe(2);
      expect(await main(['import', '--job', 'jobs/x', file])).toBe(2);
      expect(await main(['import', '--job', `${PARENT}/importJobs/new-one`, '--endpoint', emulator.url, file])).toBe(2);
      expect(await main(['import', '--job', `${PARENT}/importJobs/new-one`, '--endpoint', emulator.url, '/no/such.csv'])).toBe(2);
      const said = stderr.mock.calls.map((c) => String(c[0])).join('');
      expect(said).toContain('--job is required');
      expect(said).toContain(`job ${PARENT}/importJobs/new-one does not exist: give --source and --format to create it`);
      expect(said).toContain('no such file or folder: /no/such.csv');
    } finally {
      stderr.mockRestore();
    }
  });

  it('a file uploaded before (a job that failed validation): its bytes are replaced and the job validated again', async () => {
    const job = `${PARENT}/importJobs/fixed`;
    const bad = path.join(FIXTURES, 'invalid', 'bad-int', 'vmInfo.csv');
    const first = await run(['--job', job, '--source', 'files', '--format', 'manual-csv', bad]);
    expect([first.code, first.text]).toEqual([1, expect.stringContaining('IMPORT_JOB_STATE_FAILED_VALIDATION')]);
    const good = path.join(FIXTURES, 'valid', 'basic', 'vmInfo.csv');
    const { code, text } = await run(['--job', job, good]);
    expect(text).toMatch(/replaced .*valid\/basic\/vmInfo\.csv \(\d+ bytes/);
    expect(text).toContain('OK: no blocking errors (IMPORT_JOB_FORMAT_MANUAL_CSV)');
    expect(text).toMatch(/IMPORT_JOB_STATE_COMPLETED \(\d+ row\(s\)/);
    expect(code).toBe(0);
    const files = await api<{ importDataFiles: Array<{ name: string; state: string }> }>('GET', `/v1alpha1/${job}/importDataFiles`);
    expect(files.importDataFiles.map((f) => [f.name, f.state])).toEqual([[`${job}/importDataFiles/vm-info-csv`, 'ACTIVE']]);
  });
});

describe('google-native-local import against something else than the emulator', () => {
  const said = async (args: string[]): Promise<{ code: number; stderr: string }> => {
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const code = await importCommand(args, textSink(), {});
      return { code, stderr: stderr.mock.calls.map((c) => String(c[0])).join('') };
    } finally {
      stderr.mockRestore();
    }
  };
  const listen = async (server: http.Server): Promise<string> => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const file = path.join(FIXTURES, 'valid', 'basic', 'vmInfo.csv');

  it('another web server (HTML 404s and 501s): says it is not the emulator, never that the source does not exist', async () => {
    // What a static file server answers: an HTML 404 to GETs, an HTML 501 to other methods.
    const server = http.createServer((req, res) => {
      res.writeHead(req.method === 'GET' ? 404 : 501, { 'content-type': 'text/html' });
      res.end(`<!DOCTYPE html><html><body><h1>Error response</h1><p>${req.method === 'GET' ? 'File not found' : 'Unsupported method'}</p></body></html>`);
    });
    const url = await listen(server);
    try {
      const { code, stderr } = await said(['--job', `${PARENT}/importJobs/elsewhere`, '--source', 'files', '--format', 'manual-csv', '--endpoint', url, file]);
      expect(code).toBe(1);
      expect(stderr).toContain(`${url} is not the emulator nor a Google API: it answered GET /v1alpha1/${PARENT}/importJobs/elsewhere`);
      expect(stderr).toContain('with HTTP 404 and a body that is not a Google API error (<!DOCTYPE html>');
      expect(stderr).toContain('google-native-local serve');
      expect(stderr).not.toContain('does not exist');
    } finally {
      server.close();
    }
  });

  it('nothing listening: says to start the emulator', async () => {
    const server = http.createServer();
    const url = await listen(server);
    await new Promise((resolve) => server.close(resolve));
    const { code, stderr } = await said(['--job', `${PARENT}/importJobs/nobody`, '--endpoint', url, file]);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `could not reach ${url}: ECONNREFUSED: is the emulator running? start the emulator (\`npm start\` in a checkout, or \`google-native-local serve\`)`,
    );
  });
});
