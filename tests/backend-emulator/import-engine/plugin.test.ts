/**
 * The pipeline is format-agnostic: a format is a definition (kinds + templates + rules), a reader and
 * an asset mapping. These synthetic formats exercise the plug points the next formats need:
 * a sheet-based reader with typed cells and sparse row numbers (what the RVTools XLSX reader will
 * emit), and recognition by header when file names do not tell kinds apart.
 */
import { executeWith, validateWith, type AssetMapping, type FormatDefinition, type Reader, type ReaderEvent } from '../../../backend-emulator/import-engine';
import { memFile, MemorySink } from '../../support/import-engine';

/** A toy "workbook": JSON `{ sheetName: [[header...], [cells...], ...] }`; null rows are empty rows. */
const jsonWorkbookReader: Reader = async function* (bytes) {
  const parts: Buffer[] = [];
  for await (const b of bytes) parts.push(b);
  const book = JSON.parse(Buffer.concat(parts).toString('utf8'), (_k, v) =>
    typeof v === 'string' && v.startsWith('date:') ? new Date(v.slice(5)) : v,
  ) as Record<string, Array<unknown[] | null>>;
  for (const [sheet, rows] of Object.entries(book)) {
    const ev: ReaderEvent = { type: 'table', sheet, header: rows[0] as string[], headerRow: 1 };
    yield ev;
    const body: unknown[][] = [];
    const numbers: number[] = [];
    rows.slice(1).forEach((r, i) => {
      if (r) {
        body.push(r);
        numbers.push(i + 2);
      }
    });
    yield { type: 'rows', firstRow: 2, rows: body as never, rowNumbers: numbers };
  }
};

interface Children {
  disks: number[];
}

const mapping: AssetMapping<Children> = {
  machineKind: 'machines',
  newChildren: () => ({ disks: [] }),
  addChild: (_kind, c, r) => void c.disks.push(r['Capacity MiB'] as number),
  build: (m, c) => ({
    asset: {
      machineId: m.VM as string,
      attributes: { poweredOn: String(m.PoweredOn) },
      labels: {},
      virtualMachineDetails: {
        coreCount: m.CPUs as number,
        createTime: new Date(m.Created as number).toISOString(),
        vmDisks: { hddTotalCapacityBytes: String((c?.disks ?? []).reduce((a, b) => a + b, 0) * 1024 * 1024) },
      },
    },
    frames: 1,
  }),
};

const sheetFormat: FormatDefinition<Children> = {
  format: 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX',
  label: 'Toy workbook',
  description: 'test only',
  reader: jsonWorkbookReader,
  assets: mapping,
  fileKinds: [
    {
      kind: 'machines',
      title: 'vInfo',
      fileName: /\.json$/i,
      sheetName: /^vInfo$/,
      required: true,
      key: 'VM',
      identity: { name: 'VM', uuid: 'VM' },
      description: '',
      columns: [
        { name: 'VM', type: 'string', presence: 'required', description: '' },
        { name: 'CPUs', type: 'int', presence: 'required', min: 1, description: '' },
        { name: 'PoweredOn', type: 'bool', presence: 'optional', description: '' },
        { name: 'Created', type: 'timestamp', presence: 'optional', description: '' },
      ],
    },
    {
      kind: 'disks',
      title: 'vDisk',
      fileName: /\.json$/i,
      sheetName: /^vDisk$/,
      required: false,
      references: { column: 'VM', kind: 'machines' },
      identity: { uuid: 'VM' },
      description: '',
      columns: [
        { name: 'VM', type: 'string', presence: 'required', description: '' },
        { name: 'Capacity MiB', aliases: ['Capacity MB'], type: 'number', presence: 'required', description: '' },
      ],
    },
  ],
};

describe('a sheet-based reader plugs into the same pipeline', () => {
  const book = {
    vInfo: [
      ['VM', 'CPUs', 'PoweredOn', 'Created'],
      ['web', 2, true, 'date:2023-01-02T03:04:05Z'],
      null,
      ['db', 0, false, 'date:2023-01-02T03:04:05Z'],
      ['app', 4, 'False', '01/31/2024 13:30:00'],
    ],
    vDisk: [
      ['VM', 'Capacity MB'],
      ['web', 1024],
      ['app', 512.5],
      ['ghost', 1],
    ],
    vHost: [['Host'], ['esx-1']],
  };
  const file = () => memFile('export.json', JSON.stringify(book));

  test('typed cells, sparse row numbers, sheet locations in row errors, unused sheets', async () => {
    const r = await validateWith(sheetFormat, [file()]);
    expect(r).toEqual({
      jobErrors: [],
      fileValidations: [
        {
          fileName: 'export.json',
          partialReport: false,
          fileErrors: [{ severity: 'INFO', errorDetails: 'the sheet "vHost" is not used by the Toy workbook import; it is ignored' }],
          rowErrors: [
            {
              rowNumber: 4,
              vmName: 'db',
              vmUuid: 'db',
              assetTitle: 'db',
              xlsxError: { sheet: 'vInfo', rowNumber: 4 },
              errors: [{ severity: 'ERROR', errorDetails: 'CPUs must be at least 1, got 0' }],
            },
            {
              rowNumber: 4,
              vmName: '',
              vmUuid: 'ghost',
              assetTitle: 'ghost',
              xlsxError: { sheet: 'vDisk', rowNumber: 4 },
              errors: [{ severity: 'ERROR', errorDetails: 'VM "ghost" matches no VM of vInfo' }],
            },
          ],
        },
      ],
    });
  });

  test('execution joins the sheets of one file', async () => {
    const sink = new MemorySink();
    const r = await executeWith(sheetFormat, [file()], sink);
    expect(r.totalRowsCount).toBe(3 + 3);
    expect(
      sink.assets.map((a) => [
        a.machineId,
        a.attributes.poweredOn,
        a.virtualMachineDetails.coreCount,
        a.virtualMachineDetails.createTime,
        a.virtualMachineDetails.vmDisks?.hddTotalCapacityBytes,
      ]),
    ).toEqual([
      ['web', 'true', 2, '2023-01-02T03:04:05.000Z', String(1024 * 1024 * 1024)],
      ['app', 'false', 4, '2024-01-31T13:30:00.000Z', String(512.5 * 1024 * 1024)],
    ]);
  });
});

describe('recognition by header when names are shared', () => {
  const byHeader: FormatDefinition = {
    format: 'IMPORT_JOB_FORMAT_CMDB',
    label: 'Toy CMDB',
    description: 'test only',
    assets: {
      machineKind: 'machines',
      newChildren: () => ({}),
      addChild: () => undefined,
      build: (m) => ({ asset: { machineId: m.id as string, attributes: {}, labels: {}, virtualMachineDetails: {} }, frames: 1 }),
    },
    fileKinds: [
      {
        kind: 'machines',
        title: 'servers export',
        fileName: /\.csv$/i,
        headerMatch: (h) => h.includes('hostname'),
        required: true,
        key: 'id',
        description: '',
        columns: [
          { name: 'id', type: 'string', presence: 'required', description: '' },
          { name: 'hostname', type: 'string', presence: 'required', description: '' },
        ],
      },
      {
        kind: 'tags',
        title: 'tags export',
        fileName: /\.csv$/i,
        headerMatch: (h) => h.includes('tag'),
        required: false,
        references: { column: 'id', kind: 'machines' },
        description: '',
        columns: [
          { name: 'id', type: 'string', presence: 'required', description: '' },
          { name: 'tag', type: 'string', presence: 'required', description: '' },
        ],
      },
    ],
  };

  test('the header decides the kind, and the machine file is still read first', async () => {
    const files = [memFile('b.csv', 'id,tag\nm1,x\nm9,y\n'), memFile('a.csv', 'ID,Hostname\nm1,h1\n'), memFile('c.csv', 'foo,bar\n1,2\n')];
    const r = await validateWith(byHeader, files);
    expect(r.jobErrors).toEqual([]);
    expect(r.fileValidations.map((f) => [f.fileName, f.fileErrors.map((e) => e.errorDetails), f.rowErrors.map((e) => e.errors[0].errorDetails)])).toEqual([
      ['b.csv', [], ['id "m9" matches no id of servers export']],
      ['a.csv', [], []],
      ['c.csv', ['"c.csv" matches servers export and tags export by name but its header fits none of them'], []],
    ]);
  });
});
