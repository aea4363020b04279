/**
 * The regions where Google stores Migration Center resources, as Google's "Migration Center
 * locations" page lists them (cloud.google.com/migration-center/docs/locations; Europe, North and
 * South America and APAC). `projects.locations.list` answers these, and every further location
 * where the project holds Migration Center data in the emulator (locations.ts).
 */
export interface Region {
  id: string;
  /** The page's "Region location": the city. */
  displayName: string;
}

export const MIGRATION_CENTER_REGIONS: readonly Region[] = [
  { id: 'asia-southeast1', displayName: 'Jurong West, Singapore' },
  { id: 'europe-west1', displayName: 'St. Ghislain, Belgium' },
  { id: 'europe-west2', displayName: 'London, United Kingdom' },
  { id: 'europe-west3', displayName: 'Frankfurt, Germany' },
  { id: 'europe-west4', displayName: 'Eemshaven, Netherlands' },
  { id: 'europe-west6', displayName: 'Zurich, Switzerland' },
  { id: 'southamerica-east1', displayName: 'São Paulo, Brazil' },
  { id: 'us-central1', displayName: 'Council Bluffs, Iowa' },
  { id: 'us-east4', displayName: 'Ashburn, Virginia' },
  { id: 'us-east5', displayName: 'Columbus, Ohio' },
];
