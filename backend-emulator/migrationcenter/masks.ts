/**
 * `updateMask` of the Migration Center update methods (import jobs, sources): required, as Google
 * requires it (`UpdateImportJobRequest.update_mask`, `UpdateSourceRequest.update_mask`), and a
 * FieldMask whose paths may be written in either spelling (`display_name` or `displayName`), as
 * Google's JSON mapping accepts both. Paths come back in JSON (lowerCamelCase) spelling. A `*`
 * stands for every updatable field (AIP-134: "a single * value in the mask lets you overwrite all
 * fields"; a field absent from the body is then cleared).
 */
import { invalidArgument } from '../errors';
import { jsonFieldPath } from '../http/protojson';

/** The mask's paths in JSON spelling; INVALID_ARGUMENT `updateMask` "is required" when it names none. */
export function maskPaths(updateMask: string | undefined, updatable: readonly string[]): string[] {
  const paths = (updateMask ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map(jsonFieldPath);
  if (paths.length === 0) {
    throw invalidArgument([{ field: 'updateMask', description: `is required: name the fields to update (${updatable.join(', ')})` }]);
  }
  return paths.includes('*') ? [...new Set([...updatable, ...paths.filter((p) => p !== '*')])] : paths;
}
