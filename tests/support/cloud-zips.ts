/**
 * The zips Google's AWS and Azure collection scripts hand the user, built in the test from the CSV
 * fixtures (tests/fixtures/aws/valid, azure/valid) the way each script version builds them (see
 * ../../shared facts in docs/formats/aws-csv.md and azure-csv.md), so nothing binary is committed:
 * - AWS 1.4.1 `aws-import-files.zip`: the four CSVs (Python csv: CRLF, minimal quoting) and
 *   `resources.json`, all from ./output;
 * - AWS 1.5.x `vm-aws-import-files.zip`: everything under ./output/, so the `vm/` folder with the
 *   CSVs (plus PrimaryMACAddress and MemoryUtilizationPercentage) and the JSON an earlier
 *   ManagedService run left in `services/`;
 * - Azure 1.4.1 `azure-import-files.zip`: the CSVs plus `resources.json`; Azure 1.5.2
 *   `vm-azure-import-files.zip`: output/*.csv. Both Export-Csv in Cloud Shell: all quoted, LF.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { zip, type ZipPart } from '../../support/xlsx-build';
import { FIXTURES } from './import-formats';

export { zip, type ZipPart };

const CSVS = ['vmInfo.csv', 'diskInfo.csv', 'perfInfo.csv', 'tagInfo.csv'];

function fixture(dir: string, name: string): string {
  return readFileSync(join(FIXTURES, dir, name), 'utf8');
}

/** Inserts an empty column `name` after the column `after` (parsed and written back as the script's dialect). */
function withColumn(csv: string, after: string, name: string, dialect: { quotes: boolean; newline: string }): string {
  const rows = Papa.parse<string[]>(csv.replace(/\r?\n$/, ''), { newline: csv.includes('\r\n') ? '\r\n' : '\n' }).data;
  const at = rows[0].indexOf(after) + 1;
  const out = rows.map((r, i) => [...r.slice(0, at), i === 0 ? name : '', ...r.slice(at)]);
  return Papa.unparse(out, { quotes: dialect.quotes, newline: dialect.newline }) + dialect.newline;
}

const RESOURCES_JSON = JSON.stringify({ resources: [{ type: 'ec2', count: 3 }] });

export function aws141Zip(): { name: string; data: Buffer } {
  const parts: ZipPart[] = CSVS.map((n) => ({ name: `output/${n}`, data: fixture('aws/valid', n) }));
  parts.push({ name: 'output/resources.json', data: RESOURCES_JSON });
  return { name: 'aws-import-files.zip', data: zip(parts) };
}

export function aws15Zip(): { name: string; data: Buffer } {
  const python = { quotes: false, newline: '\r\n' };
  const csv: Record<string, string> = {
    'vmInfo.csv': withColumn(fixture('aws/valid', 'vmInfo.csv'), 'PrimaryIPAddress', 'PrimaryMACAddress', python),
    'diskInfo.csv': fixture('aws/valid', 'diskInfo.csv'),
    'perfInfo.csv': withColumn(fixture('aws/valid', 'perfInfo.csv'), 'CpuUtilizationPercentage', 'MemoryUtilizationPercentage', python),
    'tagInfo.csv': fixture('aws/valid', 'tagInfo.csv'),
  };
  const parts: ZipPart[] = [
    { name: 'output/', data: '', method: 0 },
    { name: 'output/vm/', data: '', method: 0 },
    ...CSVS.map((n) => ({ name: `output/vm/${n}`, data: csv[n] })),
    { name: 'output/services/', data: '', method: 0 },
    { name: 'output/services/resources.json', data: RESOURCES_JSON },
    { name: 'output/services/db_mysql-prod.json', data: JSON.stringify({ engine: 'mysql', version: '8.0' }) },
  ];
  return { name: 'vm-aws-import-files.zip', data: zip(parts) };
}

const lf = (s: string) => s.replace(/\r\n/g, '\n');

export function azure141Zip(): { name: string; data: Buffer } {
  const parts: ZipPart[] = CSVS.map((n) => ({ name: n, data: lf(fixture('azure/valid', n)) }));
  parts.push({ name: 'resources.json', data: JSON.stringify([{ type: 'Microsoft.Compute/virtualMachines', count: 2 }]) });
  return { name: 'azure-import-files.zip', data: zip(parts) };
}

export function azure152Zip(): { name: string; data: Buffer } {
  const ps = { quotes: true, newline: '\n' };
  const csv: Record<string, string> = {
    'vmInfo.csv': withColumn(lf(fixture('azure/valid', 'vmInfo.csv')), 'PrimaryIPAddress', 'PrimaryMACAddress', ps),
    'diskInfo.csv': lf(fixture('azure/valid', 'diskInfo.csv')),
    'perfInfo.csv': withColumn(lf(fixture('azure/valid', 'perfInfo.csv')), 'CpuUtilizationPercentage', 'MemoryUtilizationPercentage', ps),
    'tagInfo.csv': lf(fixture('azure/valid', 'tagInfo.csv')),
  };
  return { name: 'vm-azure-import-files.zip', data: zip(CSVS.map((n) => ({ name: `output/${n}`, data: csv[n] }))) };
}

/** A deflated entry of `size` zero bytes declared as itself: ratio about 1000:1 (a classic bomb). */
export function zerosPart(name: string, size: number): ZipPart {
  return { name, data: Buffer.alloc(size) };
}
