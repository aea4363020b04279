/**
 * `assets:reportAssetFrames` (v1alpha1): the second way data enters Migration Center, what
 * discovery clients and collectors send. The call names its `source` (an existing source of the
 * call's location); its body is Frames, parsed as Google's JSON front end parses it (the Frames
 * and AssetFrame schemas: an unknown name or a wrong JSON type fails the whole call).
 *
 * Each parsed frame is then checked on its own (the AssetFrameRules schema, and that it reports a
 * virtual machine with an id): a good frame is written as its asset, through the import's upsert
 * (one path, one identity rule: frame-asset.ts), with the source among the asset's `sources`; a
 * bad frame is not written and becomes an error frame of the source (error-frames.ts), counted in
 * the source's `errorFrameCount`. One bad frame does not fail the call: Google's answer is the
 * empty ReportAssetFramesResponse either way. The whole call is one transaction.
 */
import type { Store } from '../../store/store';
import { invalidArgument, notFound } from '../../errors';
import { schemaViolations } from '../../http/validation';
import type { AssetPerformanceData } from '../../import-engine/asset';
import { parseSourceName, RESOURCE_TYPES } from '../names';
import type { Assets } from '../assets/assets';
import type { Sources } from '../sources/sources';
import { assetId } from '../assets/assets';
import type { ErrorFrames, FrameViolation } from './error-frames';
import { frameAsset, frameMachineId, type MachineFrame } from './frame-asset';

/** AssetFrame fields holding details of assets other than virtual machines (the emulator keeps machines only). */
const OTHER_ASSET_DETAILS = /^(aws\w+Details|databaseDeploymentDetails|databaseDetails|machineDetails)$/;

/** A violation's field is written in the version's names (wire-version.ts ErrorFrame); its text names both. */
const OTHER_DETAILS_VIOLATION = 'the emulator keeps virtual machine assets only: report the machine in virtualMachineDetails (machineDetails in v1)';

/** A v1alpha1 frame's machineDetails is read as its machine (frame-machine.ts) unless the frame has virtualMachineDetails too. */
const TWO_MACHINES_VIOLATION = 'report the machine once: in virtualMachineDetails or in machineDetails, not both';

/** The violations of one parsed frame; none when it can be written as an asset. */
export function frameViolations(frame: MachineFrame): FrameViolation[] {
  const out: FrameViolation[] = schemaViolations('AssetFrameRules', frame).map((v) => ({ field: v.field, violation: v.description }));
  for (const key of Object.keys(frame)) {
    if (OTHER_ASSET_DETAILS.test(key)) {
      out.push({ field: key, violation: key === 'machineDetails' ? TWO_MACHINES_VIOLATION : OTHER_DETAILS_VIOLATION });
    }
  }
  if (frame.virtualMachineDetails === undefined) {
    if (out.length === 0) out.push({ field: 'virtualMachineDetails', violation: 'is required: the frame reports no asset' });
  } else if (frameMachineId(frame) === undefined) {
    out.push({ field: 'virtualMachineDetails.vmUuid', violation: 'is required (or attributes.MachineId): it identifies the machine' });
  }
  return out;
}

export class AssetFrames {
  constructor(
    private readonly store: Store,
    private readonly assets: Assets,
    readonly sources: Sources,
    readonly errorFrames: ErrorFrames,
    private readonly now: () => number = Date.now,
  ) {}

  /** ReportAssetFrames: answers the empty ReportAssetFramesResponse. */
  report(parent: string, source: string | undefined, body: Record<string, unknown>): Record<string, never> {
    if (source === undefined || source === '')
      throw invalidArgument([{ field: 'source', description: 'is required: the name of the source reporting the frames' }]);
    const parsed = parseSourceName(source);
    if (!parsed) throw invalidArgument([{ field: 'source', description: 'must be projects/{project}/locations/{location}/sources/{source}' }]);
    if (parsed.parent !== parent) throw invalidArgument([{ field: 'source', description: `must be a source of ${parent}, the call's project and location` }]);
    const violations = schemaViolations('Frames', body);
    if (violations.length > 0) throw invalidArgument(violations);
    const frames = (body.framesData ?? []) as MachineFrame[];
    const time = this.now();
    return this.store.transaction(() => {
      if (!this.sources.find(source)) throw notFound(RESOURCE_TYPES.source, source);
      const errors: Array<{ frame: Record<string, unknown>; violations: FrameViolation[] }> = [];
      for (const frame of frames) {
        const found = frameViolations(frame);
        if (found.length > 0) {
          errors.push({ frame, violations: found });
          continue;
        }
        // One asset at a time: a later frame of the same machine in this call merges with what an earlier one wrote.
        const machineId = frameMachineId(frame) as string;
        const previous = this.assets.find(`${parent}/assets/${assetId(machineId)}`)?.performanceData as AssetPerformanceData | undefined;
        this.assets.upsert(parent, source, [frameAsset(frame, machineId, time, previous)]);
      }
      this.errorFrames.add(source, time, errors);
      this.sources.countErrorFrames(source, errors.length);
      return {};
    });
  }
}
