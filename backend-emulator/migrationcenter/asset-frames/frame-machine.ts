/**
 * A frame's `machineDetails` as the stored machine. Revision 188 of v1alpha1 lists it on AssetFrame
 * beside `virtualMachineDetails`: the same message as v1's MachineDetails (same name, the same
 * fields, a few of revision 140's besides), so a v1alpha1 frame's machine in it is read by v1's
 * table (machine-details.ts, through the v1 edge's reader) into the `virtualMachineDetails` the
 * emulator keeps, and becomes the same asset a v1 frame's would.
 *
 * On v1 the edge has already read its `machineDetails` into `virtualMachineDetails` before the
 * route sees the body, so a frame still holding one is v1alpha1's. A frame holding both is left
 * as it is: an error frame (asset-frames.ts), as the machine would be reported twice.
 */
import { readRequestMessage } from '../version-translation';
import { V1, V1ALPHA1, type WireVersion } from '../wire-version';

/** v1's table, with v1alpha1's `@type`s in what it refuses (an enum value MachineDetails has not). */
const V1_MACHINE_IN_V1ALPHA1: WireVersion = { ...V1, typePrefix: V1ALPHA1.typePrefix };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `body` (Frames) with each frame's lone `machineDetails` read as its `virtualMachineDetails` (a copy; the body is not changed). */
export function framesWithStoredMachines(body: Record<string, unknown>): Record<string, unknown> {
  const frames = body.framesData;
  if (!Array.isArray(frames) || !frames.some((f) => isObject(f) && isObject(f.machineDetails) && f.virtualMachineDetails === undefined)) return body;
  const framesData = frames.map((frame: unknown, i) => {
    if (!isObject(frame) || !isObject(frame.machineDetails) || frame.virtualMachineDetails !== undefined) return frame;
    const { machineDetails, ...rest } = frame;
    return {
      ...rest,
      virtualMachineDetails: readRequestMessage(V1_MACHINE_IN_V1ALPHA1, 'MachineDetails', machineDetails, `frames.frames_data[${i}].machine_details`),
    };
  });
  return { ...body, framesData };
}
