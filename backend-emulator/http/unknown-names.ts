/**
 * Google's JSON front end parses a request body into the method's request message before the
 * method runs: a name the message does not have is refused there, in its words (`Invalid JSON
 * payload received. Unknown name "labelz" at 'asset': Cannot find field.`), whatever else the body
 * gets wrong. The schemas say it as a field violation `is not a known property`; the two schema
 * bridges (http/validation.ts, migrationcenter/schemas-bridge.ts) hand their violations here, so
 * that every body checked against a request schema is refused the same way.
 */
import type { FieldViolation } from '../errors';
import { refuseUnknownFields } from '../errors';

/** The reason schemas/failures.ts gives for a property a schema does not have. */
export const UNKNOWN_PROPERTY = 'is not a known property';

/**
 * Where each request body schema sits in its request message, as Google's parser names it: the
 * body field's proto name (`body: "asset"`), or '' for a body that is the request itself (`body: "*"`).
 * A schema not listed (labels checked apart, frames' per-frame rules) keeps its violations.
 */
const REQUEST_BODIES: Readonly<Record<string, string>> = {
  Source: 'source',
  Group: 'group',
  PreferenceSet: 'preference_set',
  Settings: 'settings',
  DiscoveryClient: 'discovery_client',
  DiscoveryClientHeartbeat: '',
  Frames: 'frames',
  Asset: 'asset',
  AssetsExportJob: 'assets_export_job',
  ReportExportJob: 'report_export_job',
  ReportConfig: 'report_config',
  Report: 'report',
  ImportDataFile: 'import_data_file',
  BatchUpdateAssetsRequest: '',
  BatchDeleteAssetsRequest: '',
  AddAssetsToGroupRequest: '',
  RemoveAssetsFromGroupRequest: '',
};

/** `framesData[0].virtualMachineDetails` -> `frames_data[0].virtual_machine_details`. */
function protoPath(jsonPath: string): string {
  return jsonPath.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * Throws Google's unknown-name error when the violations of a request body schema include a
 * property the schema does not have (the first such message's names, all of them); returns otherwise.
 */
export function refuseUnknownNames(schemaName: string, violations: readonly FieldViolation[]): void {
  if (!Object.hasOwn(REQUEST_BODIES, schemaName)) return;
  const unknown = violations.filter((v) => v.description === UNKNOWN_PROPERTY);
  if (unknown.length === 0) return;
  const split = (field: string): [string, string] => {
    const dot = field.lastIndexOf('.');
    return dot < 0 ? ['', field] : [field.slice(0, dot), field.slice(dot + 1)];
  };
  const [container] = split(unknown[0].field);
  const names = unknown.map((v) => split(v.field)).filter(([c]) => c === container);
  const at = [REQUEST_BODIES[schemaName], protoPath(container)].filter((p) => p !== '').join('.');
  const keys = new Set(names.map(([, name]) => name));
  refuseUnknownFields(Object.fromEntries([...keys].map((k) => [k, true])), () => false, at);
}
