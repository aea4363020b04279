/**
 * The oldest Node the package runs on: package.json `engines` (>=22). npm only warns about
 * `engines`, and on Node 20 `better-sqlite3` 13 crashes (a segmentation fault) when the store
 * opens, so the commands refuse an older Node with a sentence instead.
 */
export const MIN_NODE_MAJOR = 22;

/** Why this Node cannot run the package, or undefined when it can. */
export function unsupportedNode(version: string = process.versions.node): string | undefined {
  const major = Number(version.split('.')[0]);
  if (major >= MIN_NODE_MAJOR) return undefined;
  return `Node ${MIN_NODE_MAJOR} or newer is needed (this is Node ${version}); in a clone of the repository, npm start and npx google-native-local run under the project's own Node`;
}
