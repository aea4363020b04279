/**
 * A field path of the stored (v1alpha1) shape in a version's names, from the version's table
 * (wire-version.ts): `virtualMachineDetails.vmDisks.hddTotalCapacityBytes` of an Asset is v1's
 * `machineDetails.disks.totalCapacityBytes`, `virtualMachineDetails.osFamily` is
 * `machineDetails.guestOs.family`. What an error frame's violation names, and what the asset lists
 * take in filters, orderBy and aggregations, are such paths.
 */
import type { EnumDifference, MessageDifference, WireVersion } from './wire-version';

export interface VersionField {
  /** The path in the version's names. */
  path: string;
  /** How the field's enum values differ in the version, when they do. */
  enumDiff?: EnumDifference;
}

/**
 * `storedPath` (dotted; a list's element as `field[i]`) of `message` in `version`'s names, or
 * undefined when the version has no such field (a field it lacks on the way).
 */
export function versionField(version: WireVersion, message: string, storedPath: string): VersionField | undefined {
  const segments = storedPath.split('.');
  const out: string[] = [];
  let current: string | undefined = message;
  let enumDiff: EnumDifference | undefined;
  for (let i = 0; i < segments.length; i++) {
    const diff: MessageDifference | undefined = current === undefined ? undefined : version.messages[current];
    if (diff === undefined) {
      out.push(...segments.slice(i));
      return { path: out.join('.') };
    }
    const [, name, index] = /^(.*?)((?:\[\d+\])?)$/.exec(segments[i]) as RegExpExecArray;
    if (diff.lacks?.includes(name)) return undefined;
    enumDiff = diff.enums?.[name];
    const moved = diff.moves?.[name];
    out.push(`${moved ?? diff.renames?.[name] ?? name}${index}`);
    current = diff.children?.[name];
  }
  return { path: out.join('.'), ...(enumDiff ? { enumDiff } : {}) };
}
