/**
 * An asset in ProtoJSON, built from its stored parts: what `batchUpdate` answers for each of up to
 * 1,000 assets, stringified once as the whole answer (http/protojson.ts ProtoJsonText). It is the
 * value `toProtoJson(toWire(asset))` is, fields in the same order, each field set through the
 * front end's own ProtoJSON rules (`setProtoJsonField`: defaults left out at every depth, map
 * entries kept) as the asset is built: no wire object of the whole asset to build with spreads
 * and then walk again for its defaults.
 */
import type { StoredAsset } from '../../store/asset-store';
import { wireTime } from '../../store/asset-sql';
import { setProtoJsonField, toProtoJson } from '../../http/protojson';
import { DETAIL_COLUMNS, hasKeys, wireAttributes, wireDetails, type StoredBody } from './assets';

/** A stored asset in ProtoJSON, FULL view (assets.ts `toWire`'s fields, in its order). */
export function assetProtoJson(stored: StoredAsset): Record<string, unknown> {
  const body = stored.body as unknown as StoredBody;
  const asset: Record<string, unknown> = {};
  setProtoJsonField(asset, 'name', stored.name);
  setProtoJsonField(asset, 'createTime', wireTime(stored.createTime));
  setProtoJsonField(asset, 'updateTime', wireTime(stored.updateTime));
  setProtoJsonField(asset, 'title', stored.vmName);
  setProtoJsonField(asset, 'labels', body.l);
  // The stored attributes as they are when `MachineId` is not put back (only read here: no copy).
  const putsBackMachineId = body.a === undefined || (body.a.MachineId === undefined && stored.vmUuid !== undefined && body.n === undefined);
  setProtoJsonField(asset, 'attributes', putsBackMachineId ? wireAttributes(stored) : body.a);
  setProtoJsonField(asset, 'sources', stored.sources);
  setProtoJsonField(asset, 'assignedGroups', stored.groups);
  // A message field: set even when it holds only defaults (`{}`), as `setProtoJsonField` sets it.
  asset.virtualMachineDetails = detailsProtoJson(stored, body);
  setProtoJsonField(asset, 'performanceData', body.p);
  return asset;
}

/**
 * The asset's `virtualMachineDetails` in ProtoJSON (assets.ts `wireDetails`, defaults left out).
 * Most assets' details are only their typed columns: those are set one by one, in the same order,
 * without the wire object and its walk for defaults (a key list per asset); details with more
 * (the body's, the disk capacity) are made and walked as before.
 */
function detailsProtoJson(stored: StoredAsset, body: StoredBody): Record<string, unknown> {
  if (stored.diskBytes !== undefined || hasKeys(body.d)) return toProtoJson(wireDetails(stored)) as Record<string, unknown>;
  const details: Record<string, unknown> = {};
  for (let i = 0; i < DETAIL_COLUMNS.length; i++) setProtoJsonField(details, DETAIL_COLUMNS[i], stored[DETAIL_COLUMNS[i]]);
  return details;
}
