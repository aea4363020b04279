/**
 * The v1 difference table (backend-emulator/migrationcenter/wire-version.ts) against Google's own
 * clients, an independent source: every field the table says v1 lacks is in v1alpha1's message and
 * not in v1's; every rename goes from a v1alpha1-only field to a v1-only one; and for each message
 * the table covers, no v1alpha1-only field is missing from it.
 */
import * as fs from 'fs';
import * as path from 'path';
import { V1 } from '../../../backend-emulator/migrationcenter/wire-version';
import { readRequestMessage, writeAnswer } from '../../../backend-emulator/migrationcenter/version-translation';
import { versionShape } from '../../../backend-emulator/migrationcenter/request-bodies';
import { schemaShape } from '../../../backend-emulator/http/message-shapes';
import { refuseUnknownNames } from '../../../backend-emulator/http/request-bodies';

/** The pinned revision (140) and the newest (188): a field either lists is one the version has (as the front end reads them). */
const CLIENTS = ['googleapis', 'googleapis-latest'].map((pkg) => path.join(__dirname, `../../../node_modules/${pkg}/build/src/apis/migrationcenter`));

/** `Schema$X` -> its fields, each with the `Schema$` message it holds (or a list of), if any, from the clients' type definitions. */
function schemas(file: string): Map<string, Map<string, string | undefined>> {
  const out = new Map<string, Map<string, string | undefined>>();
  for (const client of CLIENTS) {
    const source = fs.readFileSync(path.join(client, file), 'utf8');
    for (const m of source.matchAll(/^ {4}export interface Schema\$(\w+) \{([\s\S]*?)^ {4}\}/gm)) {
      const fields = [...m[2].matchAll(/^ {8}'?([\w$@]+)'?\??: (?:Schema\$(\w+))?/gm)].map((f): [string, string | undefined] => [f[1], f[2]]);
      out.set(m[1], new Map([...(out.get(m[1]) ?? []), ...fields]));
    }
  }
  return out;
}

const alpha = schemas('v1alpha1.d.ts');
const v1 = schemas('v1.d.ts');

/** Whether `dotted` is a field path of v1's `message`. */
function v1HasPath(message: string, dotted: string): boolean {
  let current: string | undefined = message;
  for (const key of dotted.split('.')) {
    const fields: Map<string, string | undefined> | undefined = current === undefined ? undefined : v1.get(current);
    if (!fields?.has(key)) return false;
    current = fields.get(key);
  }
  return true;
}

describe.each(Object.entries(V1.messages))('v1 %s', (message, diff) => {
  // A v1 message read from a stored message of another name (v1's MachineDetails is v1alpha1's VirtualMachineDetails).
  const a = alpha.get(diff.stored ?? message)!;
  const b = v1.get(message)!;

  test('exists in both clients', () => {
    expect([a !== undefined, b !== undefined]).toEqual([true, true]);
  });

  test('lacks exactly the fields v1alpha1 has and v1 has not (renamed and moved ones aside)', () => {
    const alphaOnly = [...a.keys()].filter((f) => !b.has(f)).sort();
    const declared = [...(diff.lacks ?? []), ...Object.keys(diff.renames ?? {}), ...Object.keys(diff.moves ?? {})].sort();
    expect(declared).toEqual(alphaOnly);
  });

  test('renames each to a field v1 has, from one v1 has not', () => {
    for (const [stored, wire] of Object.entries(diff.renames ?? {}))
      expect([stored, a.has(stored), b.has(stored), b.has(wire)]).toEqual([stored, true, false, true]);
  });

  test("moves each to a path of v1's message", () => {
    for (const [stored, wire] of Object.entries(diff.moves ?? {})) expect([stored, a.has(stored), v1HasPath(message, wire)]).toEqual([stored, true, true]);
  });

  test("lists exactly v1's fields, where it lists them", () => {
    if (diff.fields) expect([...diff.fields].sort()).toEqual([...b.keys()].sort());
  });

  test('names child messages the table has, on stored fields v1 has under their own name or another, or on fields v1 alone has', () => {
    for (const [field, child] of Object.entries(diff.children ?? {})) {
      const wire = diff.moves?.[field] ?? diff.renames?.[field] ?? field;
      const v1Only = !a.has(field) && (diff.fields ?? []).includes(field);
      expect([field, a.has(field) || v1Only, v1HasPath(message, wire), child in V1.messages]).toEqual([field, true, true, true]);
    }
  });

  test('names, for a field holding a field path, a message the table has', () => {
    for (const [field, of] of Object.entries(diff.paths ?? {})) expect([field, b.has(field), of in V1.messages]).toEqual([field, true, true]);
  });
});

test('the collections the table reads resources by are the messages of both clients', () => {
  for (const { message } of Object.values(V1.collections)) expect([message, alpha.has(message), v1.has(message)]).toEqual([message, true, true]);
});

describe('the v1 edge applies the table to messages of families built later, found by name or @type', () => {
  const SET = 'projects/p/locations/l/preferenceSets/ps';

  test('a PreferenceSet read through v1 loses the fields v1 lacks, also in nested preferences', () => {
    const stored = {
      name: SET,
      displayName: 'prefs',
      regionPreferences: { preferredRegions: ['us-central1'] },
      virtualMachinePreferences: {
        commitmentPlan: 'COMMITMENT_PLAN_NONE',
        computeEnginePreferences: { multithreading: 'ENABLED', licenseType: 'LICENSE_TYPE_DEFAULT' },
      },
    };
    expect(writeAnswer(V1, { preferenceSets: [stored] })).toEqual({
      preferenceSets: [
        {
          name: SET,
          displayName: 'prefs',
          virtualMachinePreferences: { commitmentPlan: 'COMMITMENT_PLAN_NONE', computeEnginePreferences: { licenseType: 'LICENSE_TYPE_DEFAULT' } },
        },
      ],
    });
  });

  test("a Report in an Operation's response: v1 @types, list children translated item by item", () => {
    const op = {
      name: 'projects/p/locations/l/operations/o',
      metadata: { '@type': 'type.googleapis.com/google.cloud.migrationcenter.v1alpha1.OperationMetadata', apiVersion: 'v1alpha1' },
      response: {
        '@type': 'type.googleapis.com/google.cloud.migrationcenter.v1alpha1.Report',
        name: 'projects/p/locations/l/reportConfigs/c/reports/r',
        summary: { groupFindings: [{ displayName: 'g', group: 'x', preferenceSetFindings: [{ displayName: 'f', topPriority: 'COST' }] }] },
      },
    };
    expect(writeAnswer(V1, op)).toEqual({
      name: 'projects/p/locations/l/operations/o',
      metadata: { '@type': 'type.googleapis.com/google.cloud.migrationcenter.v1.OperationMetadata', apiVersion: 'v1alpha1' },
      response: {
        '@type': 'type.googleapis.com/google.cloud.migrationcenter.v1.Report',
        name: 'projects/p/locations/l/reportConfigs/c/reports/r',
        summary: { groupFindings: [{ displayName: 'g', preferenceSetFindings: [{ displayName: 'f' }] }] },
      },
    });
  });

  test("a moved field fills its v1 path only where the stored message's own value is not; read back, the path's value goes to the moved field", () => {
    const stored = { vmUuid: 'u', osFamily: 'OS_FAMILY_LINUX', osName: 'flat', guestOs: { osName: 'nested', config: { issue: 'x' } } };
    const asset = writeAnswer(V1, { name: 'projects/p/locations/l/assets/a', virtualMachineDetails: stored }) as Record<string, any>;
    expect(asset.machineDetails).toEqual({ uuid: 'u', guestOs: { osName: 'nested', config: { issue: 'x' }, family: 'OS_FAMILY_LINUX' } });
    expect(readRequestMessage(V1, 'MachineDetails', asset.machineDetails, 'asset.machine_details')).toEqual({
      vmUuid: 'u',
      guestOs: { config: { issue: 'x' } },
      osFamily: 'OS_FAMILY_LINUX',
      osName: 'nested',
    });
    // Neither the stored message nor the request's objects are changed by a move.
    expect([stored.guestOs, asset.machineDetails.guestOs.family]).toEqual([{ osName: 'nested', config: { issue: 'x' } }, 'OS_FAMILY_LINUX']);
  });

  test('a v1 request body naming a field v1 lacks, deep in a message, is refused with its proto path', () => {
    const body = { virtualMachinePreferences: { computeEnginePreferences: { multithreading: 'ENABLED' } } };
    const shape = versionShape(V1, 'PreferenceSet', schemaShape('PreferenceSet'));
    expect(() => refuseUnknownNames(body, shape, 'preference_set')).toThrow(
      'Invalid JSON payload received. Unknown name "multithreading" at \'preference_set.virtual_machine_preferences.compute_engine_preferences\': Cannot find field.',
    );
    expect(readRequestMessage(V1, 'PreferenceSet', { displayName: 'd', virtualMachinePreferences: { commitmentPlan: 'X' } }, 'preference_set')).toEqual({
      displayName: 'd',
      virtualMachinePreferences: { commitmentPlan: 'X' },
    });
  });

  test('a field v1 lacks in a message the schemas leave open (a report summary) is refused too; its other names pass', () => {
    const shape = versionShape(V1, 'Report', schemaShape('Report'));
    expect(() => refuseUnknownNames({ summary: { groupFindings: [{ displayName: 'g', group: 'x' }] } }, shape, 'report')).toThrow(
      'Invalid JSON payload received. Unknown name "group" at \'report.summary.group_findings[0]\': Cannot find field.',
    );
    expect(() => refuseUnknownNames({ summary: { groupFindings: [{ displayName: 'g', anything: 1 }] } }, shape, 'report')).not.toThrow();
  });
});
