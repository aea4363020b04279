import * as fs from 'node:fs';
import { SqliteStore } from '../backend-emulator/store/sqlite-store';
import { createHash } from 'node:crypto';
const dir = '/tmp/a/micro'; fs.rmSync(dir, { recursive: true, force: true });
const store = new SqliteStore({ dataDir: dir });
const body = JSON.stringify({ labels: {}, attributes: { HostingLocation: 'us-east-1', MachineTypeLabel: 'e2-medium', OsType: 'Windows', OsPublisher: 'Microsoft', MachineStatus: 'running', IsPhysical: 'false', MachineId: 'vm-00000001' }, virtualMachineDetails: { vmUuid: 'vm-00000001', vmName: 'host-1', createTime: '2023-05-02T08:00:00Z', coreCount: 2, memoryMb: 8192, powerState: 'poweredOn', platform: { genericDetails: { location: 'us-east-1' } }, vmDisks: { hddTotalCapacityBytes: '54760833024', hddTotalFreeBytes: '51432233370' }, vmNetwork: { primaryIpAddress: '10.0.0.1', networkAdapters: { networkAdapters: [{ addresses: { addresses: [{ ipAddress: '10.0.0.1' }] } }] } }, osFamily: 'OS_FAMILY_WINDOWS', osName: 'Windows Server 2019 Datacenter', osVersion: '10.0.17763' } });
const N = Number(process.env.N ?? 100000);
let t = process.hrtime.bigint();
for (let b = 0; b < N; b += 10000) {
  const rows = [];
  for (let i = b; i < b + 10000; i++) rows.push({ id: `asset-${createHash('sha256').update(`vm-${i}`).digest('hex').slice(0, 32)}`, vmName: `host-${i}`, vmUuid: `vm-${String(i).padStart(8, '0')}`, coreCount: 1 << (i % 6), memoryMb: 4096 << (i % 6), osFamily: 'OS_FAMILY_LINUX', powerState: 'poweredOn', labels: {}, body });
  store.transaction(() => store.assets.upsert('projects/bench/locations/us-central1', 'projects/bench/locations/us-central1/sources/src', Date.now(), rows));
}
console.log('upsert ms', Number(process.hrtime.bigint() - t) / 1e6, 'size', fs.statSync(dir + '/emulator.sqlite').size / N);
store.close();
