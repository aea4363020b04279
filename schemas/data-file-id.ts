/**
 * THE rule that names an import data file from its file name, as data: the `import` command and
 * the ImportJob provider (provider/data-files.ts `dataFileId`) apply it here, and the web console
 * applies the same steps from its generated constants (backend-emulator/console/static/constants.js,
 * written by scripts/console-constants.ts), so the CLI, the provider and the console give one file
 * the same id. A test runs names through both and compares.
 *
 * `VmInfo 2024.CSV` -> `vm-info-2024-csv`: camelCase split, lowercased, runs of other characters
 * become one '-', no '-' at either end, `f-` before an id not starting with a letter, cut to 63
 * characters without a trailing '-'. The result must still pass the resource id rule
 * (http/names.ts RESOURCE_ID); the callers check it.
 */
export type DataFileIdStep =
  { replace: string; flags: string; with: string } | { lowercase: true } | { unlessMatches: string; prefix: string } | { cut: number };

export const DATA_FILE_ID_STEPS: readonly DataFileIdStep[] = [
  { replace: '([a-z0-9])([A-Z])', flags: 'g', with: '$1-$2' },
  { lowercase: true },
  { replace: '[^a-z0-9-]+', flags: 'g', with: '-' },
  { replace: '-+', flags: 'g', with: '-' },
  { replace: '^-|-$', flags: 'g', with: '' },
  { unlessMatches: '^[a-z]', prefix: 'f-' },
  { cut: 63 },
  { replace: '-+$', flags: '', with: '' },
];

/** The steps applied to a file name (its base name, without folders). */
export function applyDataFileIdSteps(fileName: string, steps: readonly DataFileIdStep[] = DATA_FILE_ID_STEPS): string {
  let id = fileName;
  for (const step of steps) {
    if ('replace' in step) id = id.replace(new RegExp(step.replace, step.flags), step.with);
    else if ('lowercase' in step) id = id.toLowerCase();
    else if ('unlessMatches' in step) id = new RegExp(step.unlessMatches).test(id) ? id : step.prefix + id;
    else id = id.slice(0, step.cut);
  }
  return id;
}
