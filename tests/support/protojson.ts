/**
 * The test side's own reading of ProtoJSON output rules (written apart from the emulator's
 * serializer, so that a fault in one is caught by the other): the paths of every field that holds
 * a default value — an empty list or map, `false`, `0` (an int64's `"0"`), `""`, `null`, or an enum zero
 * (`*_UNSPECIFIED`, `SOURCE_TYPE_UNKNOWN`, `OS_FAMILY_UNKNOWN`). Map entries are user data.
 */
const MAPS = new Set(['labels', 'attributes', 'headers', 'metadata', 'values']); // values: AggregationResult.Frequency
const ENUM_ZERO = /^[A-Z][A-Z0-9_]*_UNSPECIFIED$|^SOURCE_TYPE_UNKNOWN$|^OS_FAMILY_UNKNOWN$/;
/** int64 fields are decimal strings on the wire: their zero is "0" (byte counts of disks; aggregation counts). */
const INT64 = /Bytes$|^count$|^value$/;

export function protoJsonDefaults(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => protoJsonDefaults(item, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return [];
  const found: string[] = [];
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    const at = path ? `${path}.${key}` : key;
    const isMap = MAPS.has(key) && typeof field === 'object' && field !== null && !('@type' in field);
    if (field === null || field === false || field === 0 || field === '' || (field === '0' && INT64.test(key))) found.push(`${at} = ${JSON.stringify(field)}`);
    else if (Array.isArray(field) && field.length === 0) found.push(`${at} = []`);
    else if (typeof field === 'string' && ENUM_ZERO.test(field) && key !== 'errorDetails' && key !== 'message' && key !== 'label')
      found.push(`${at} = ${field}`);
    else if (isMap) {
      if (Object.keys(field as object).length === 0) found.push(`${at} = {}`);
    } else found.push(...protoJsonDefaults(field, at));
  }
  return found;
}

/** Google's API paths (the console's and admin's routes are the emulator's own JSON). */
export function isGoogleApiUrl(url: string): boolean {
  return /^(?:https?:\/\/[^/]+)?\/v1(?:alpha1)?\//.test(url);
}
