/**
 * The asset table's indexes by name (backend-emulator/store/sqlite-assets.ts), as literals: the
 * tests of the indexes a large run builds at its end compare the database's own list with these.
 */

/** The four low-cardinality indexes a large run builds at its end, sorted. */
export const LOW_CARDINALITY_INDEXES = ['assets_by_core_count', 'assets_by_memory_mb', 'assets_by_os_family', 'assets_by_power_state'];

/** Every index of the asset table, sorted: the four and the five others. */
export const ASSET_TABLE_INDEXES = [
  'assets_by_core_count',
  'assets_by_create_time',
  'assets_by_id',
  'assets_by_memory_mb',
  'assets_by_os_family',
  'assets_by_power_state',
  'assets_by_update_time',
  'assets_by_vm_name',
  'assets_by_vm_uuid',
];
