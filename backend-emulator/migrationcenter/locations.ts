/**
 * The locations Migration Center lists (`projects.locations.list`). Google's list depends on the
 * project and is not public in full; these are regions the product's documentation names for its
 * data. Every family accepts any location in a name (as it always has); `locations.get` answers
 * only for these (NOT_FOUND otherwise), as for a region the service does not have.
 */
export const MIGRATION_CENTER_LOCATIONS: readonly string[] = [
  'asia-northeast1',
  'asia-south1',
  'asia-southeast1',
  'australia-southeast1',
  'europe-west1',
  'europe-west2',
  'europe-west3',
  'me-west1',
  'northamerica-northeast1',
  'southamerica-east1',
  'us-central1',
  'us-east1',
  'us-east4',
  'us-west1',
  'us-west2',
];
