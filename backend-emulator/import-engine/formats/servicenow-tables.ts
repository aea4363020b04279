/**
 * What the CMDB import knows of ServiceNow's tables: a list export is named after its table
 * (`cmdb_ci_server.csv`, `cmdb_ci_linux_server.csv`, `cmdb_ci.csv`), and a base-table export
 * (`cmdb_ci`) names each row's class by its display value (`Linux Server`) or its table name.
 *
 * - server tables are read as servers; an unknown `cmdb_ci_<x>` table is read as servers too (a
 *   custom server class);
 * - the other tables below are recognised and named, and not read (they hold no servers);
 * - rows of a base-table export whose class is one of those other tables are skipped.
 */

/** Tables (and the emulator's own `cmdb`) whose rows are servers. */
export const SERVER_TABLES: readonly string[] = [
  'cmdb',
  'cmdb_ci',
  'cmdb_ci_hardware',
  'cmdb_ci_computer',
  'cmdb_ci_server',
  'cmdb_ci_linux_server',
  'cmdb_ci_win_server',
  'cmdb_ci_unix_server',
  'cmdb_ci_aix_server',
  'cmdb_ci_solaris_server',
  'cmdb_ci_hpux_server',
  'cmdb_ci_esx_server',
  'cmdb_ci_hyper_v_server',
  'cmdb_ci_vm_instance',
  'cmdb_ci_vmware_instance',
  'cmdb_ci_hyper_v_instance',
];

/** Other ServiceNow tables a user may export by mistake: table -> what it holds (its display name). */
export const OTHER_TABLES: Readonly<Record<string, string>> = {
  cmdb_ci_disk: 'disks', // read as the disk file, listed so that it is never taken for servers
  cmdb_ci_netgear: 'network gear',
  cmdb_ci_ip_router: 'IP routers',
  cmdb_ci_ip_switch: 'IP switches',
  cmdb_ci_ip_firewall: 'IP firewalls',
  cmdb_ci_lb: 'load balancers',
  cmdb_ci_printer: 'printers',
  cmdb_ci_pc_hardware: 'personal computers',
  cmdb_ci_peripheral: 'peripherals',
  cmdb_ci_storage_device: 'storage devices',
  cmdb_ci_san: 'storage area networks',
  cmdb_ci_ups: 'UPS units',
  cmdb_ci_rack: 'racks',
  cmdb_ci_appl: 'applications',
  cmdb_ci_service: 'services',
  cmdb_ci_business_app: 'business applications',
  cmdb_ci_database: 'databases',
  cmdb_ci_db_instance: 'database instances',
  cmdb_ci_cluster: 'clusters',
  cmdb_ci_vcenter: 'vCenter servers (the management application, not its VMs)',
  cmdb_ci_file_system: 'file systems',
  cmdb_ci_network_adapter: 'network adapters',
  cmdb_ci_ip_address: 'IP addresses',
  cmdb_ci_software_package: 'software packages',
};

/** The display names of the other tables' classes, as a base-table export writes them. */
const OTHER_CLASS_NAMES = new Set(
  [
    'Network Gear',
    'IP Router',
    'IP Switch',
    'IP Firewall',
    'Load Balancer',
    'Printer',
    'Personal Computer',
    'Computer Peripheral',
    'Storage Device',
    'Storage Area Network',
    'UPS',
    'Rack',
    'Application',
    'Service',
    'Business Application',
    'Database',
    'Database Instance',
    'Cluster',
    'VMware vCenter Instance',
    'File System',
    'Network Adapter',
    'IP Address',
    'Software Package',
    'Disk',
  ].map((n) => n.toLowerCase()),
);

const COPY_SUFFIX = String.raw`(?:\s*\(\d+\))?\.csv$`;
const OTHER_NAMES = Object.keys(OTHER_TABLES).join('|');

/** A server file: `cmdb.csv`, `cmdb_ci.csv` or `cmdb_ci_<table>.csv` for a table not in OTHER_TABLES. */
export const SERVER_TABLE_FILE = new RegExp(`^(?!(?:${OTHER_NAMES})${COPY_SUFFIX})cmdb(?:_ci(?:_\\w+)?)?${COPY_SUFFIX}`, 'i');

/** An export of one of the other tables, `cmdb_ci_disk` included. */
export const OTHER_TABLE_FILE = new RegExp(`^(?:${OTHER_NAMES})${COPY_SUFFIX}`, 'i');

/** `cmdb_ci_netgear (1).csv` -> `cmdb_ci_netgear`; undefined for a name that is no table export. */
export function tableOfFile(base: string): string | undefined {
  const m = /^(cmdb(?:_ci(?:_\w+?)?)?)(?:\s*\(\d+\))?\.csv$/i.exec(base);
  return m ? m[1].toLowerCase() : undefined;
}

/** Whether a row's class (table name or display value) is one of the other tables: not a server. */
export function isOtherClass(cls: string): boolean {
  const c = cls.trim().toLowerCase();
  return c in OTHER_TABLES || OTHER_CLASS_NAMES.has(c);
}
