/**
 * `updateMask` of the Migration Center update methods (import jobs, sources): required, as Google
 * requires it (`UpdateImportJobRequest.update_mask`, `UpdateSourceRequest.update_mask`), and a
 * FieldMask whose paths may be written in either spelling (`display_name` or `displayName`), as
 * Google's JSON mapping accepts both. Paths come back in JSON (lowerCamelCase) spelling.
 */
import { invalidArgument } from '../errors';

/** `display_name` -> `displayName`, segment by segment; camelCase paths pass unchanged. */
export function jsonPath(path: string): string {
  return path
    .split('.')
    .map((segment) => segment.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase()))
    .join('.');
}

/** The mask's paths in JSON spelling; INVALID_ARGUMENT `updateMask` "is required" when it names none. */
export function maskPaths(updateMask: string | undefined, updatable: readonly string[]): string[] {
  const paths = (updateMask ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map(jsonPath);
  if (paths.length === 0) {
    throw invalidArgument([{ field: 'updateMask', description: `is required: name the fields to update (${updatable.join(', ')})` }]);
  }
  return paths;
}
