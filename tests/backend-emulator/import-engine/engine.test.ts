/**
 * The engine's API around the pipeline: formats, job errors, report caps, sink batching, progress,
 * cancellation, join partitions, templates.
 */
import { Readable } from 'node:stream';
import {
  DEFAULTS,
  executeImport,
  hasBlockingErrors,
  listFormats,
  templateCsv,
  validateImport,
  type Asset,
  type ImportJobFormat,
  type PayloadFile,
} from '../../../backend-emulator/import-engine';
import { fixtureFiles, memFile, MemorySink, VM_HEADER, vmRow } from '../../support/import-engine';

const FORMAT = 'IMPORT_JOB_FORMAT_MANUAL_CSV';

function vmFile(rows: string[], name = 'vmInfo.csv'): PayloadFile {
  return memFile(name, `${VM_HEADER}\n${rows.join('\n')}\n`);
}

const ids = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `vm-${i + from}`);

describe('formats', () => {
  test('listFormats: every format of the API, manual CSV with vmInfo.csv first and required', () => {
    const formats = listFormats();
    expect(formats.map((f) => f.format).sort()).toEqual([
      'IMPORT_JOB_FORMAT_CMDB',
      'IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV',
      'IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV',
      'IMPORT_JOB_FORMAT_MANUAL_CSV',
      'IMPORT_JOB_FORMAT_RVTOOLS_CSV',
      'IMPORT_JOB_FORMAT_RVTOOLS_XLSX',
    ]);
    const manual = formats.find((f) => f.format === 'IMPORT_JOB_FORMAT_MANUAL_CSV')!;
    expect(manual.fileKinds.map((k) => [k.title, k.kind, k.required])).toEqual([
      ['vmInfo.csv', 'machines', true],
      ['perfInfo.csv', 'performance', false],
      ['diskInfo.csv', 'disks', false],
      ['tagInfo.csv', 'tags', false],
    ]);
  });

  test('unknown format: a job error, every file listed without errors', async () => {
    const r = await validateImport('IMPORT_JOB_FORMAT_NOPE' as ImportJobFormat, [vmFile([vmRow('vm-1')])]);
    expect(r.jobErrors).toEqual([
      {
        severity: 'ERROR',
        errorDetails:
          'unknown import format "IMPORT_JOB_FORMAT_NOPE": expected one of IMPORT_JOB_FORMAT_CMDB, IMPORT_JOB_FORMAT_RVTOOLS_XLSX, IMPORT_JOB_FORMAT_RVTOOLS_CSV, IMPORT_JOB_FORMAT_EXPORTED_AWS_CSV, IMPORT_JOB_FORMAT_EXPORTED_AZURE_CSV, IMPORT_JOB_FORMAT_MANUAL_CSV, IMPORT_JOB_FORMAT_DATABASE_ZIP',
      },
    ]);
    expect(r.fileValidations).toEqual([{ fileName: 'vmInfo.csv', fileErrors: [], rowErrors: [], partialReport: false }]);
  });

  const DATABASE_ZIP_ERROR = {
    severity: 'ERROR',
    errorDetails:
      'Format IMPORT_JOB_FORMAT_DATABASE_ZIP (database assessment exports) is not supported by the emulator; database assets are not emulated and the layout of the exports is not published; import machine inventories (manual CSV, RVTools, AWS or Azure exports) instead, or run this import against Google',
  };

  test('IMPORT_JOB_FORMAT_DATABASE_ZIP: a known format that validation refuses with one blocking job error', async () => {
    const r = await validateImport('IMPORT_JOB_FORMAT_DATABASE_ZIP', [memFile('db-export.zip', 'PK\u0003\u0004')]);
    expect(r.jobErrors).toEqual([DATABASE_ZIP_ERROR]);
    expect(hasBlockingErrors(r)).toBe(true);
    expect(r.fileValidations.map((f) => f.fileName)).toEqual(['db-export.zip']);
    expect(r.fileValidations.flatMap((f) => [...(f.fileErrors ?? []), ...(f.rowErrors ?? [])])).toEqual([]);
  });

  test('IMPORT_JOB_FORMAT_DATABASE_ZIP: execution refuses it too and writes no asset', async () => {
    const sink = new MemorySink();
    const r = await executeImport('IMPORT_JOB_FORMAT_DATABASE_ZIP', [vmFile([vmRow('vm-1')])], sink);
    expect(r.executionErrors.jobErrors).toEqual([DATABASE_ZIP_ERROR]);
    expect(r.framesReported).toBe(0);
    expect(sink.assets).toEqual([]);
  });

  test.each([
    'IMPORT_JOB_FORMAT_RVTOOLS_XLSX',
    'IMPORT_JOB_FORMAT_VMTOOL_CSV', // the reference spelling is accepted
    'IMPORT_JOB_FORMAT_CMDB',
  ])('%s: a manual vmInfo.csv given as this format is an error, not a silent pass', async (format) => {
    const sink = new MemorySink();
    const r = await executeImport(format as ImportJobFormat, [vmFile([vmRow('vm-1')])], sink);
    const errors = [...r.executionErrors.jobErrors, ...r.executionErrors.fileValidations.flatMap((f) => f.fileErrors)];
    expect(errors.filter((e) => e.severity === 'ERROR').length).toBeGreaterThan(0);
    expect(r.framesReported).toBe(0);
    expect(sink.assets).toEqual([]);
  });

  test('no payload files', async () => {
    expect(await validateImport(FORMAT, [])).toEqual({
      jobErrors: [{ severity: 'ERROR', errorDetails: 'the import job has no payload files' }],
      fileValidations: [],
    });
  });

  test('a .zip is opened (archives.test.ts); a broken one is a file error, other archive kinds get a hint', async () => {
    const r = await validateImport(FORMAT, [vmFile([vmRow('vm-1')]), memFile('aws-import-files.zip', 'PK'), memFile('aws-import-files.7z', '7z')]);
    expect(r.fileValidations[1].fileErrors).toEqual([{ severity: 'ERROR', errorDetails: 'the archive cannot be read: the file is not a zip archive' }]);
    expect(r.fileValidations[2].fileErrors).toEqual([
      {
        severity: 'ERROR',
        errorDetails:
          '"aws-import-files.7z" is an archive of a kind that is not read (only .zip is); upload the files it contains (vmInfo.csv, perfInfo.csv, diskInfo.csv, tagInfo.csv)',
      },
    ]);
  });

  test('file names are matched on the last path segment, case-insensitively', async () => {
    const r = await validateImport(FORMAT, [vmFile([vmRow('vm-1')], 'exports\\2024/VMINFO.CSV')]);
    expect(r).toEqual({ jobErrors: [], fileValidations: [{ fileName: 'exports\\2024/VMINFO.CSV', fileErrors: [], rowErrors: [], partialReport: false }] });
  });

  test('each template generated from the definition validates cleanly and imports', async () => {
    const kinds = listFormats()[0].fileKinds;
    const files = kinds.map((k) => memFile(k.title, templateCsv(k)));
    const r = await validateImport(FORMAT, files);
    expect(r.jobErrors).toEqual([]);
    expect(r.fileValidations.flatMap((f) => [...f.fileErrors, ...f.rowErrors])).toEqual([]);
    const sink = new MemorySink();
    const e = await executeImport(FORMAT, files, sink);
    expect(e.totalRowsCount).toBe(4);
    expect(sink.assets).toHaveLength(1);
    expect(sink.assets[0].labels).toEqual({ env: 'prod' });
    expect(sink.assets[0].virtualMachineDetails.vmDisks?.disks?.entries).toHaveLength(1);
    expect(sink.assets[0].performanceData?.dailyResourceUsageAggregations).toHaveLength(1);
    expect(templateCsv(kinds[3])).toBe('MachineId,Key,Value\r\nvm-0001,env,prod\r\n');
  });
});

describe('maxRowErrorsPerFile', () => {
  const bad = (n: number) => ids(n).map((id) => vmRow(id).replace(',2,4,', ',x,4,'));

  test('validation lists the first N row errors, marks the report partial and stops that file', async () => {
    const r = await validateImport(FORMAT, [vmFile(bad(10))], { maxRowErrorsPerFile: 3 });
    const f = r.fileValidations[0];
    expect(f.rowErrors.map((e) => e.rowNumber)).toEqual([2, 3, 4]);
    expect(f.partialReport).toBe(true);
    expect(f.fileErrors).toEqual([
      { severity: 'INFO', errorDetails: 'validation of this file stopped after row 4: the report lists at most 3 row errors per file' },
    ]);
  });

  test('warnings fill the list without stopping; a later ERROR is still caught as a file error', async () => {
    const warn = ids(5).map((id) => vmRow(id).replace('Ubuntu', '=formula'));
    const r = await validateImport(FORMAT, [vmFile([...warn, vmRow('vm-9').replace(',2,4,', ',x,4,'), vmRow('vm-10')])], { maxRowErrorsPerFile: 2 });
    const f = r.fileValidations[0];
    expect(f.rowErrors.map((e) => [e.rowNumber, e.errors[0].severity])).toEqual([
      [2, 'WARNING'],
      [3, 'WARNING'],
    ]);
    expect(f.partialReport).toBe(true);
    expect(f.fileErrors).toEqual([
      {
        severity: 'ERROR',
        errorDetails: 'row 7 has errors that are not listed: the report lists at most 2 row errors per file; validation of this file stopped there',
      },
    ]);
  });

  test('warnings only beyond the cap: partial, but valid', async () => {
    const warn = ids(5).map((id) => vmRow(id).replace('Ubuntu', '@x'));
    const r = await validateImport(FORMAT, [vmFile(warn)], { maxRowErrorsPerFile: 2 });
    expect(r.fileValidations[0].partialReport).toBe(true);
    expect(r.fileValidations[0].fileErrors).toEqual([]);
  });

  test('execution does not stop at the cap: every valid row is imported, the overflow is noted once', async () => {
    const rows = [...bad(4), ...ids(3, 10).map((id) => vmRow(id)), ...bad(2).map((r) => r.replace('vm-', 'vm-b'))];
    const sink = new MemorySink();
    const r = await executeImport(FORMAT, [vmFile(rows)], sink, { maxRowErrorsPerFile: 2 });
    expect(sink.assets.map((a) => a.machineId)).toEqual(['vm-10', 'vm-11', 'vm-12']);
    const f = r.executionErrors.fileValidations[0];
    expect(f.rowErrors.map((e) => e.rowNumber)).toEqual([2, 3]);
    expect(f.partialReport).toBe(true);
    expect(f.fileErrors).toEqual([
      {
        severity: 'ERROR',
        errorDetails: 'row 4 has errors that are not listed: the report lists at most 2 row errors per file (later rows with errors were skipped too)',
      },
    ]);
    expect(r.totalRowsCount).toBe(9);
    expect(r.framesReported).toBe(3);
  });

  test(`the default is ${DEFAULTS.maxRowErrorsPerFile}`, async () => {
    const r = await validateImport(FORMAT, [vmFile(bad(1005))]);
    expect(r.fileValidations[0].rowErrors).toHaveLength(1000);
    expect(r.fileValidations[0].partialReport).toBe(true);
  });
});

describe('execution', () => {
  test('assets reach the sink in batches of sinkBatchSize; async sinks are awaited in order', async () => {
    const seen: number[] = [];
    let active = 0;
    const sink = {
      async write(assets: Asset[]) {
        expect(active).toBe(0);
        active++;
        await new Promise((r) => setTimeout(r, 1));
        seen.push(assets.length);
        active--;
      },
    };
    const r = await executeImport(FORMAT, [vmFile(ids(2500).map((id) => vmRow(id)))], sink);
    expect(seen).toEqual([1000, 1000, 500]);
    expect(r.framesReported).toBe(2500);
    const small = new MemorySink();
    await executeImport(FORMAT, [vmFile(ids(7).map((id) => vmRow(id)))], small, { sinkBatchSize: 3 });
    expect(small.batches).toEqual([3, 3, 1]);
  });

  test('a failing sink rejects executeImport with its own error', async () => {
    const boom = new Error('store is full');
    const sink = {
      write() {
        throw boom;
      },
    };
    await expect(executeImport(FORMAT, [vmFile([vmRow('vm-1')])], sink)).rejects.toBe(boom);
    await expect(executeImport(FORMAT, fixtureFiles('valid/basic'), { write: () => Promise.reject(boom) })).rejects.toBe(boom);
  });

  test('duplicates: the first row wins, later ones are reported and skipped', async () => {
    const sink = new MemorySink();
    const r = await executeImport(FORMAT, [vmFile([vmRow('vm-1', 'first'), vmRow('vm-2'), vmRow('vm-1', 'second')])], sink);
    expect(sink.assets.map((a) => a.virtualMachineDetails.vmName)).toEqual(['first', 'host-vm-2']);
    expect(r.executionErrors.fileValidations[0].rowErrors.map((e) => e.rowNumber)).toEqual([4]);
  });

  test('child rows of invalid or unknown machines are dropped; valid children are attached', async () => {
    const files = [
      vmFile([vmRow('vm-1'), vmRow('vm-2').replace(',2,4,', ',x,4,')]),
      memFile('tagInfo.csv', 'MachineId,Key,Value\nvm-1,a,1\nvm-2,b,2\nvm-3,c,3\nvm-1,BAD,x\n'),
    ];
    const sink = new MemorySink();
    const r = await executeImport(FORMAT, files, sink);
    expect(sink.assets.map((a) => [a.machineId, a.labels])).toEqual([['vm-1', { a: '1' }]]);
    expect(r.executionErrors.fileValidations[1].rowErrors.map((e) => e.rowNumber)).toEqual([4, 5]);
  });

  test('joins in several hash partitions give the same assets as one join', async () => {
    const machines = ids(300);
    const tags = machines.flatMap((id, i) => [`${id},k${i % 7},v${i}`, `${id},team,t${i % 3}`]);
    const disks = machines.map((id, i) => `${id},d${i},${i + 1},${i / 2}`);
    const perf = machines.flatMap((id, i) => [
      `${id},2024-01-0${(i % 9) + 1}T00:00:00Z,${i % 100}`,
      `${id},2024-01-0${(i % 9) + 1}T00:30:00Z,${(i * 7) % 100}`,
    ]);
    const files = () => [
      memFile('tagInfo.csv', `MachineId,Key,Value\n${tags.join('\n')}\n`),
      memFile('diskInfo.csv', `MachineId,DiskLabel,SizeInGib,UsedInGib\n${disks.join('\n')}\n`),
      memFile('perfInfo.csv', `MachineId,TimeStamp,CpuUtilizationPercentage\n${perf.join('\n')}\n`),
      vmFile(machines.map((id) => vmRow(id))),
    ];
    const one = new MemorySink();
    const many = new MemorySink();
    const r1 = await executeImport(FORMAT, files(), one);
    const r2 = await executeImport(FORMAT, files(), many, { joinMemoryBytes: 2000 });
    const byId = (s: MemorySink) => [...s.assets].sort((a, b) => a.machineId.localeCompare(b.machineId));
    expect(many.assets).toHaveLength(300);
    expect(byId(many)).toEqual(byId(one));
    expect(r2).toEqual(r1);
    expect(r1.framesReported).toBe(300 + 600);
    expect(r1.totalRowsCount).toBe(300 + 600 + 300 + 600);
  });

  test('progress: called per batch, monotonic, naming the file', async () => {
    const progress: Array<{ rowsRead: number; file: string }> = [];
    await executeImport(FORMAT, fixtureFiles('valid/basic'), new MemorySink(), { onProgress: (p) => progress.push(p) });
    const counts = progress.map((p) => p.rowsRead);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(new Set(progress.map((p) => p.file))).toEqual(new Set(['vmInfo.csv', 'diskInfo.csv', 'perfInfo.csv', 'tagInfo.csv']));
    expect(progress[0].file).toBe('vmInfo.csv'); // the machine file is read first whatever the payload order
  });

  test('an aborted signal rejects with its reason and releases the stream', async () => {
    const controller = new AbortController();
    let destroyed = false;
    const file: PayloadFile = {
      name: 'vmInfo.csv',
      open: () => {
        let i = 0;
        const s = new Readable({
          read() {
            this.push(
              i++ === 0
                ? `${VM_HEADER}\n`
                : `${ids(2000, i * 2000)
                    .map((id) => vmRow(id))
                    .join('\n')}\n`,
            );
          },
          destroy(err, cb) {
            destroyed = true;
            cb(err);
          },
        });
        return s;
      },
    };
    const reason = new Error('cancelled by the test');
    const pending = validateImport(FORMAT, [file], {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.rowsRead > 5000) controller.abort(reason);
      },
    });
    await expect(pending).rejects.toBe(reason);
    expect(destroyed).toBe(true);
  });
});
