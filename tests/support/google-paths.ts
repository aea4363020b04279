/** Concrete URLs of Google's path patterns, for tests that walk every method of the method table. */

/** A concrete URL of a table path (`/v1/projects/*\/locations/*\/meshes`): every `*` an id (`global` for a location). */
export function concreteGooglePath(path: string): string {
  const parts = path.split('/');
  return parts
    .map((part, i) => (part.startsWith('*') ? (parts[i - 1] === 'locations' ? 'global' : `x-${parts[i - 1].toLowerCase()}`) + part.slice(1) : part))
    .join('/');
}
