/**
 * The RVTools XLSX import against the bare exceljs streaming reader.
 *
 * Generates an "Export all to xlsx"-like workbook of `vms` VMs (exceljs streaming WorkbookWriter,
 * shared strings, into a temp dir): vInfo with the 4.x columns, vDisk (1 to 2 disks per VM),
 * vPartition and vNetwork (one row per VM), vHost. Then measures
 *   (a) exceljs' streaming WorkbookReader reading every row of every sheet (the floor to beat),
 *   (b) validateImport, (c) executeImport with a counting sink,
 * and prints seconds, rows/s, peak RSS (sampled every 50 ms) and the ratio to (a).
 *
 * Run alone: `npx ts-node --transpile-only bench/import-xlsx.ts [vms]`.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, promises as fs, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { executeImport, executeWith, validateImport, validateWith } from '../backend-emulator/import-engine';
import type { PayloadFile } from '../backend-emulator/import-engine';
import { FORMATS } from '../backend-emulator/import-engine/formats';
import { rvtoolsXlsx } from '../backend-emulator/import-engine/formats/rvtools-xlsx';

const VINFO = [
  'VM',
  'Powerstate',
  'Template',
  'SRM Placeholder',
  'Config status',
  'DNS Name',
  'Connection state',
  'Guest state',
  'Heartbeat',
  'Consolidation Needed',
  'PowerOn',
  'Suspend time',
  'Creation date',
  'Change Version',
  'CPUs',
  'Memory',
  'NICs',
  'Disks',
  'Total disk capacity MiB',
  'min Required EVC Mode Key',
  'Latency Sensitivity',
  'EnableUUID',
  'CBT',
  'Primary IP Address',
  'Network #1',
  'Network #2',
  'Num Monitors',
  'Video Ram KiB',
  'Resource pool',
  'Folder ID',
  'Folder',
  'vApp',
  'DAS protection',
  'FT State',
  'FT Role',
  'FT Latency',
  'FT Bandwidth',
  'FT Sec. Latency',
  'Provisioned MiB',
  'In Use MiB',
  'Unshared MiB',
  'HA Restart Priority',
  'HA Isolation Response',
  'HA VM Monitoring',
  'Boot Required',
  'Boot delay',
  'Boot retry delay',
  'Boot retry enabled',
  'Boot BIOS setup',
  'Reboot PowerOff',
  'EFI Secure boot',
  'Firmware',
  'HW version',
  'HW upgrade status',
  'HW upgrade policy',
  'HW target',
  'Path',
  'Log directory',
  'Snapshot directory',
  'Suspend directory',
  'Annotation',
  'Datacenter',
  'Cluster',
  'Host',
  'OS according to the configuration file',
  'OS according to the VMware Tools',
  'VM ID',
  'SMBIOS UUID',
  'VM UUID',
  'VI SDK Server type',
  'VI SDK API Version',
  'VI SDK Server',
  'VI SDK UUID',
];
const VDISK = [
  'VM',
  'Powerstate',
  'Template',
  'Disk',
  'Disk Key',
  'Capacity MiB',
  'Raw',
  'Disk Mode',
  'Thin',
  'Controller',
  'Label',
  'Unit #',
  'Datacenter',
  'Cluster',
  'Host',
  'VM ID',
  'VM UUID',
  'VI SDK Server',
];
const VPART = [
  'VM',
  'Powerstate',
  'Template',
  'Disk Key',
  'Disk',
  'Capacity MiB',
  'Consumed MiB',
  'Free MiB',
  'Free %',
  'Datacenter',
  'Cluster',
  'Host',
  'VM ID',
  'VM UUID',
  'VI SDK Server',
];
const VNET = [
  'VM',
  'Powerstate',
  'Template',
  'NIC label',
  'Adapter',
  'Network',
  'Switch',
  'Connected',
  'Starts Connected',
  'Mac Address',
  'Type',
  'IPv4 Address',
  'IPv6 Address',
  'Datacenter',
  'Cluster',
  'Host',
  'VM ID',
  'VM UUID',
  'VI SDK Server',
];

const OSES = ['Microsoft Windows Server 2019 (64-bit)', 'Ubuntu Linux (64-bit)', 'Red Hat Enterprise Linux 8 (64-bit)', 'CentOS 7 (64-bit)'];
const SERVER = 'vc01.example.com';

function uuid(prefix: string, i: number): string {
  const h = i.toString(16).padStart(12, '0');
  return `${prefix}-0c1d-4e5f-8a9b-${h}`;
}

/**
 * Writes the workbook; returns how many data rows it holds. The last VM of every `templateEvery`
 * is a template (the bench's 1,000; a test's small workbook asks for one sooner).
 */
export async function generateRvtoolsWorkbook(path: string, vms: number, templateEvery = 1000): Promise<{ rows: number }> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: true, useStyles: true });
  const info = wb.addWorksheet('vInfo');
  const disk = wb.addWorksheet('vDisk');
  const part = wb.addWorksheet('vPartition');
  const net = wb.addWorksheet('vNetwork');
  const host = wb.addWorksheet('vHost');
  info.addRow(VINFO).commit();
  disk.addRow(VDISK).commit();
  part.addRow(VPART).commit();
  net.addRow(VNET).commit();
  host.addRow(['Host', 'Datacenter', 'Cluster', '# CPU', '# Cores', '# Memory']).commit();
  let rows = 0;
  const created = new Date(Date.UTC(2023, 0, 1));
  for (let i = 0; i < vms; i++) {
    const name = `vm-${String(i).padStart(6, '0')}`;
    const on = i % 7 !== 0;
    const power = on ? 'poweredOn' : 'poweredOff';
    const template = i % templateEvery === templateEvery - 1 ? 'True' : 'False';
    const cpus = 1 << (i % 4);
    const mem = cpus * 4096;
    const disks = 1 + (i % 2);
    const capMiB = disks * 51200;
    const dc = `DC${i % 3}`;
    const cluster = `Cluster${i % 10}`;
    const esx = `esx${i % 50}.example.com`;
    const os = OSES[i % OSES.length];
    const vmId = `vm-${1000 + i}`;
    const vmUuid = uuid('5012a3b4', i);
    const ip = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    const values: Record<string, unknown> = {
      VM: name,
      Powerstate: power,
      Template: template,
      'SRM Placeholder': 'False',
      'Config status': 'green',
      'DNS Name': `${name}.example.com`,
      'Connection state': 'connected',
      'Guest state': on ? 'running' : 'notRunning',
      Heartbeat: 'green',
      'Consolidation Needed': 'False',
      PowerOn: on ? created : null,
      'Creation date': created,
      'Change Version': '2023-01-01T00:00:00.000Z',
      CPUs: cpus,
      Memory: mem,
      NICs: 1,
      Disks: disks,
      'Total disk capacity MiB': capMiB,
      'Latency Sensitivity': 'normal',
      EnableUUID: 'False',
      CBT: 'False',
      'Primary IP Address': on ? ip : null,
      'Network #1': 'VM Network',
      'Num Monitors': 1,
      'Video Ram KiB': 4096,
      'Resource pool': 'Resources',
      'Folder ID': 'group-v1',
      Folder: `Folder${i % 20}`,
      'DAS protection': 'True',
      'FT State': 'notConfigured',
      'FT Latency': -1,
      'FT Bandwidth': -1,
      'FT Sec. Latency': -1,
      'Provisioned MiB': capMiB + mem,
      'In Use MiB': Math.floor(capMiB / 2),
      'Unshared MiB': Math.floor(capMiB / 2),
      'HA Restart Priority': 'medium',
      'HA Isolation Response': 'none',
      'HA VM Monitoring': 'vmMonitoringDisabled',
      'Boot Required': 'False',
      'Boot delay': 0,
      'Boot retry delay': 10000,
      'Boot retry enabled': 'False',
      'Boot BIOS setup': 'False',
      'Reboot PowerOff': 'False',
      'EFI Secure boot': 'False',
      Firmware: i % 2 ? 'efi' : 'bios',
      'HW version': 19,
      'HW upgrade status': 'none',
      'HW upgrade policy': 'never',
      Path: `[ds${i % 8}] ${name}/${name}.vmx`,
      'Log directory': `[ds${i % 8}] ${name}`,
      'Snapshot directory': `[ds${i % 8}] ${name}`,
      'Suspend directory': `[ds${i % 8}] ${name}`,
      Datacenter: dc,
      Cluster: cluster,
      Host: esx,
      'OS according to the configuration file': os,
      'OS according to the VMware Tools': on ? os : null,
      'VM ID': vmId,
      'SMBIOS UUID': uuid('4212a3b4', i),
      'VM UUID': vmUuid,
      'VI SDK Server type': 'VirtualCenter',
      'VI SDK API Version': '8.0.2.0',
      'VI SDK Server': SERVER,
      'VI SDK UUID': '6c1f0e2a-1111-4c1e-9a55-0d6c2a9b1f00',
    };
    info.addRow(VINFO.map((h) => values[h] ?? null)).commit();
    rows++;
    for (let d = 0; d < disks; d++) {
      disk
        .addRow([
          name,
          power,
          template,
          `Hard disk ${d + 1}`,
          2000 + d,
          51200,
          'False',
          'persistent',
          'True',
          'SCSI controller 0',
          `Hard disk ${d + 1}`,
          d,
          dc,
          cluster,
          esx,
          vmId,
          vmUuid,
          SERVER,
        ])
        .commit();
      rows++;
    }
    if (on) {
      part.addRow([name, power, template, 2000, '/', 51000, 20000, 31000, 60, dc, cluster, esx, vmId, vmUuid, SERVER]).commit();
      rows++;
    }
    const mac = `00:50:56:${((i >> 16) & 255).toString(16).padStart(2, '0')}:${((i >> 8) & 255).toString(16).padStart(2, '0')}:${(i & 255).toString(16).padStart(2, '0')}`;
    net
      .addRow([
        name,
        power,
        template,
        'Network adapter 1',
        'vmxnet3',
        'VM Network',
        'vSwitch0',
        'True',
        'True',
        mac,
        'assigned',
        on ? ip : null,
        null,
        dc,
        cluster,
        esx,
        vmId,
        vmUuid,
        SERVER,
      ])
      .commit();
    rows++;
  }
  for (let h = 0; h < 50; h++) host.addRow([`esx${h}.example.com`, `DC${h % 3}`, `Cluster${h % 10}`, 2, 64, 524288]).commit();
  info.commit();
  disk.commit();
  part.commit();
  net.commit();
  host.commit();
  await wb.commit();
  return { rows };
}

interface Phase {
  seconds: number;
  /** CPU time of the phase's process (user + system): steadier than wall time on a shared machine. */
  cpuSeconds: number;
  rows: number;
  peakRssMiB: number;
  baseRssMiB: number;
  /** Peak of the JS heap in use, and of memory outside it (Buffers: the workbook, zlib). */
  peakHeapMiB: number;
  peakExternalMiB: number;
}

async function measure(fn: () => Promise<number>): Promise<Phase> {
  (global as { gc?: () => void }).gc?.();
  const base = process.memoryUsage.rss();
  let peak = base;
  let heap = 0;
  let external = 0;
  const sample = (): void => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.rss);
    heap = Math.max(heap, m.heapUsed);
    external = Math.max(external, m.external);
  };
  const timer = setInterval(sample, 50);
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  try {
    const rows = await fn();
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const c = process.cpuUsage(c0);
    sample();
    return {
      seconds,
      cpuSeconds: (c.user + c.system) / 1e6,
      rows,
      peakRssMiB: peak / 2 ** 20,
      baseRssMiB: base / 2 ** 20,
      peakHeapMiB: heap / 2 ** 20,
      peakExternalMiB: external / 2 ** 20,
    };
  } finally {
    clearInterval(timer);
  }
}

type PhaseName = 'bare' | 'validate' | 'execute';

/** One phase, in this process. */
async function runPhase(name: PhaseName, path: string, rowsHint: number): Promise<Phase & { assets?: number }> {
  const fileBytes = statSync(path).size;
  const file: PayloadFile = { name: 'RVTools_export_all.xlsx', size: fileBytes, open: () => createReadStream(path, { highWaterMark: 1 << 20 }) };
  const registered = FORMATS.IMPORT_JOB_FORMAT_RVTOOLS_XLSX === rvtoolsXlsx;
  if (name === 'bare') {
    return measure(async () => {
      const reader = new ExcelJS.stream.xlsx.WorkbookReader(path, {
        sharedStrings: 'cache',
        worksheets: 'emit',
        styles: 'ignore',
        hyperlinks: 'ignore',
        entries: 'ignore',
      });
      let n = 0;
      for await (const ws of reader) for await (const row of ws) if (row.hasValues) n++;
      return n;
    });
  }
  if (name === 'validate') {
    return measure(async () => {
      const report = registered ? await validateImport('IMPORT_JOB_FORMAT_RVTOOLS_XLSX', [file]) : await validateWith(rvtoolsXlsx, [file]);
      const f = report.fileValidations[0];
      if (f.fileErrors.some((e) => e.severity === 'ERROR')) throw new Error(`validation failed: ${JSON.stringify(f.fileErrors)}`);
      // the report does not count rows: the rows validated are those execution counts (same passes)
      return rowsHint;
    });
  }
  let assets = 0;
  const phase = await measure(async () => {
    const sink = { write: (batch: unknown[]) => void (assets += batch.length) };
    const report = registered ? await executeImport('IMPORT_JOB_FORMAT_RVTOOLS_XLSX', [file], sink) : await executeWith(rvtoolsXlsx, [file], sink);
    return report.totalRowsCount;
  });
  return { ...phase, assets };
}

/**
 * Runs a phase in a fresh node process, so that its peak RSS is its own (not the generator's or a
 * previous phase's heap). Falls back to this process when spawning is not possible.
 */
function phaseInChild(name: PhaseName, path: string, rows: number): Phase & { assets?: number } {
  const args = [
    ...(__filename.endsWith('.ts') ? ['-r', 'ts-node/register/transpile-only'] : []),
    '--expose-gc',
    __filename,
    '--phase',
    name,
    path,
    String(rows),
  ];
  const r = spawnSync(process.execPath, args, {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
    env: { ...process.env, TS_NODE_PROJECT: join(__dirname, '..', 'tsconfig.json') },
  });
  if (r.status !== 0) throw new Error(`bench phase ${name} failed: ${r.stderr || r.stdout}`);
  const lastLine = r.stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(lastLine) as Phase & { assets?: number };
}

export interface ImportXlsxBenchResult {
  vms: number;
  fileBytes: number;
  generateSeconds: number;
  bare: Phase;
  validate: Phase;
  execute: Phase & { assets: number };
  /** Wall-time ratios to the bare reader. */
  ratioValidate: number;
  ratioExecute: number;
  /** CPU-time ratios to the bare reader. */
  cpuRatioValidate: number;
  cpuRatioExecute: number;
}

export async function runImportXlsxBench(vms = 100_000): Promise<ImportXlsxBenchResult> {
  const dir = await fs.mkdtemp(join(tmpdir(), 'import-xlsx-bench-'));
  const path = join(dir, 'RVTools_export_all.xlsx');
  try {
    const g0 = Date.now();
    const { rows } = await generateRvtoolsWorkbook(path, vms);
    const generateSeconds = (Date.now() - g0) / 1000;
    const fileBytes = statSync(path).size;
    const bare = phaseInChild('bare', path, rows);
    const execute = phaseInChild('execute', path, rows);
    const validate = phaseInChild('validate', path, execute.rows);
    return {
      vms,
      fileBytes,
      generateSeconds,
      bare,
      validate,
      execute: { ...execute, assets: execute.assets ?? 0 },
      ratioValidate: validate.seconds / bare.seconds,
      ratioExecute: execute.seconds / bare.seconds,
      cpuRatioValidate: validate.cpuSeconds / bare.cpuSeconds,
      cpuRatioExecute: execute.cpuSeconds / bare.cpuSeconds,
    };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

function line(label: string, p: Phase, ratio?: number, cpuRatio?: number): string {
  const rate = Math.round(p.rows / p.seconds).toLocaleString('en-US');
  const r = ratio === undefined ? '' : `, ${ratio.toFixed(2)}x the bare reader (CPU ${cpuRatio!.toFixed(2)}x)`;
  return `${label}: ${p.seconds.toFixed(2)} s (CPU ${p.cpuSeconds.toFixed(2)} s), ${p.rows.toLocaleString('en-US')} rows, ${rate} rows/s, peak RSS ${p.peakRssMiB.toFixed(0)} MiB (from ${p.baseRssMiB.toFixed(0)} MiB; heap ${p.peakHeapMiB.toFixed(0)}, external ${p.peakExternalMiB.toFixed(0)})${r}`;
}

export function printImportXlsxBench(r: ImportXlsxBenchResult): void {
  console.log(
    `RVTools XLSX import, ${r.vms.toLocaleString('en-US')} VMs, ${(r.fileBytes / 2 ** 20).toFixed(1)} MiB workbook (generated in ${r.generateSeconds.toFixed(1)} s)`,
  );
  console.log(`  ${line('(a) exceljs streaming WorkbookReader, every row', r.bare)}`);
  console.log(`  ${line('(b) validateImport', r.validate, r.ratioValidate, r.cpuRatioValidate)}`);
  console.log(
    `  ${line('(c) executeImport, counting sink', r.execute, r.ratioExecute, r.cpuRatioExecute)}; ${r.execute.assets.toLocaleString('en-US')} assets`,
  );
}

if (require.main === module && process.argv[2] === '--phase') {
  const [, , , name, path, rows] = process.argv;
  runPhase(name as PhaseName, path, Number(rows))
    .then((p) => console.log(JSON.stringify(p)))
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
} else if (require.main === module) {
  const vms = Number(process.argv[2]) || 100_000;
  runImportXlsxBench(vms)
    .then(printImportXlsxBench)
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
}
