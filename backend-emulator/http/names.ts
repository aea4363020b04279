/**
 * Resource names and Google's custom verbs (`{name}:getIamPolicy`).
 *
 * find-my-way reads ':' as a parameter marker and its '::' escape does not combine with a
 * parameter in one segment, so routes take the whole last segment as a parameter and
 * `splitVerb` separates `id:verb` itself. Resource ids never contain ':'.
 */
import { invalidArgument } from '../errors';

/** Project ids (`my-project`, `google.com:legacy`) or numbers. */
const PROJECT = /^[a-z0-9][a-z0-9.:-]{0,99}$/i;
/** Locations: `global`, `us-central1`, `europe-west4-a`. */
const LOCATION = /^[a-z0-9][a-z0-9-]{0,62}$/;
/**
 * A resource ID (AIP-122): 1 to 63 characters, a lowercase letter first, then lowercase letters,
 * digits or '-', not ending with '-'. The one TypeScript copy of the rule; the JSON Schemas
 * (schemas/*.schema.json `pattern`) spell the same rule and a test keeps them equal.
 */
export const RESOURCE_ID = /^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$/;
export const RESOURCE_ID_REASON =
  "must be a resource ID: 1 to 63 characters, a lowercase letter first, then lowercase letters, digits or '-', not ending with '-'";

/**
 * The wider id the emulator's Network Services routes accept (endpointPolicyId and the id in a
 * name): 1-63 characters, a letter first, letters, digits, '-' or '_'. Kept as it was by the
 * refactor that gathered the id rules here (narrowing it to RESOURCE_ID would change the wire).
 */
export const NAME_SEGMENT_ID = /^[A-Za-z]([A-Za-z0-9_-]{0,61}[A-Za-z0-9])?$/;

export interface LocationName {
  project: string;
  location: string;
  /** `projects/{project}/locations/{location}` */
  parent: string;
}

/** Checks a project path segment (`projects/{project}`, the parent of `locations.list`). */
export function checkProject(project: string, field = 'name'): string {
  if (!PROJECT.test(project)) throw invalidArgument([{ field, description: `'${project}' is not a valid project id or number` }]);
  return project;
}

/** Checks the project and location path segments and builds the parent name. */
export function locationName(project: string, location: string, field = 'parent'): LocationName {
  if (!PROJECT.test(project)) throw invalidArgument([{ field, description: `'${project}' is not a valid project id or number` }]);
  if (!LOCATION.test(location)) throw invalidArgument([{ field, description: `'${location}' is not a valid location` }]);
  return { project, location, parent: `projects/${project}/locations/${location}` };
}

/** `policy-1:getIamPolicy` -> { id: 'policy-1', verb: 'getIamPolicy' }; `policy-1` -> { id: 'policy-1' }. */
export function splitVerb(segment: string): { id: string; verb?: string } {
  const colon = segment.indexOf(':');
  if (colon < 0) return { id: segment };
  return { id: segment.slice(0, colon), verb: segment.slice(colon + 1) };
}

/** Checks a caller-chosen id (`endpointPolicyId`, `importJobId`); `field` names the parameter. */
export function checkResourceId(id: string | undefined, field: string): string {
  if (id === undefined || id === '') throw invalidArgument([{ field, description: 'is required' }]);
  if (!NAME_SEGMENT_ID.test(id)) {
    throw invalidArgument([
      { field, description: `'${id}' is not a valid id: use 1 to 63 letters, digits, '-' or '_', starting with a letter and not ending with '-' or '_'` },
    ]);
  }
  return id;
}

/** The project part of a resource name (`projects/p/locations/l/...` -> `projects/p`), if any. */
export function projectOf(resourceName: string): string | undefined {
  const match = /^projects\/([^/]+)/.exec(resourceName);
  return match ? `projects/${match[1]}` : undefined;
}
