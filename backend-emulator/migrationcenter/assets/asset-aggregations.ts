/**
 * `assets:aggregateValues` (AggregateAssetsValuesRequest / Response of v1alpha1): the request's
 * rules, and the results in Google's shape. The sums and counts themselves are SQL over the asset
 * table's indexed columns (store/sqlite-assets.ts).
 *
 * Rules (Google's client documents them): up to 25 aggregations; each names a `field` and exactly
 * one of `count`, `sum`, `histogram`, `frequency`; a histogram has up to 20 `lowerBounds`, which
 * must rise. Choices where Google says nothing: `sum` and `histogram` apply to the numeric fields,
 * `count` counts the selected assets whose field is set, `frequency` counts each value of a field.
 */
import { invalidArgument } from '../../errors';
import type { AssetAggregateResult, AssetAggregation } from '../../store/asset-store';
import { writeEnumValue } from '../version-translation';
import type { EnumDifference } from '../wire-version';
import { storedFieldOf, type AssetFieldPaths } from './asset-field-paths';

export const MAX_AGGREGATIONS = 25;
export const MAX_LOWER_BOUNDS = 20;

export interface AggregateRequest {
  aggregations?: Array<Record<string, unknown>> | null;
  filter?: string | null;
  showHidden?: boolean | null;
}

export interface AggregateResponse {
  results?: Array<Record<string, unknown>>;
}

const KINDS = ['count', 'sum', 'histogram', 'frequency'] as const;

function bad(field: string, description: string) {
  return invalidArgument([{ field, description }]);
}

/**
 * The request's aggregations, checked, on the stored fields (`paths`: the request version's names
 * of them); INVALID_ARGUMENT naming the offending field otherwise.
 */
export function checkAggregations(request: AggregateRequest, paths: AssetFieldPaths): AssetAggregation[] {
  const list = request.aggregations ?? [];
  if (!Array.isArray(list)) throw bad('aggregations', 'must be a list of aggregations');
  if (list.length > MAX_AGGREGATIONS) throw bad('aggregations', `has ${list.length} aggregations: at most ${MAX_AGGREGATIONS} are allowed`);
  return list.map((agg, i) => {
    const at = `aggregations[${i}]`;
    if (agg === null || typeof agg !== 'object') throw bad(at, 'must be an aggregation object');
    const field = agg.field;
    if (typeof field !== 'string' || field === '') throw bad(`${at}.field`, 'is required: the asset field to aggregate');
    const stored = storedFieldOf(paths, field);
    if (!stored) throw bad(`${at}.field`, `unknown field '${field}' (known: ${Object.keys(paths.types).join(', ')})`);
    const type = stored.type;
    const kinds = KINDS.filter((k) => agg[k] !== undefined && agg[k] !== null);
    if (kinds.length !== 1)
      throw bad(at, `must set exactly one of count, sum, histogram, frequency (it sets ${kinds.length === 0 ? 'none' : kinds.join(', ')})`);
    const kind = kinds[0];
    if ((kind === 'sum' || kind === 'histogram') && type !== 'int') throw bad(`${at}.field`, `${kind} needs a numeric field: '${field}' is not one`);
    if (kind !== 'histogram') return { field: stored.field, kind };
    const bounds = (agg.histogram as { lowerBounds?: unknown }).lowerBounds ?? [];
    if (!Array.isArray(bounds) || bounds.some((b) => typeof b !== 'number' || !Number.isFinite(b)))
      throw bad(`${at}.histogram.lowerBounds`, 'must be a list of numbers');
    if (bounds.length > MAX_LOWER_BOUNDS) throw bad(`${at}.histogram.lowerBounds`, `has ${bounds.length} bounds: at most ${MAX_LOWER_BOUNDS} are allowed`);
    for (let b = 1; b < bounds.length; b++) {
      if ((bounds[b] as number) <= (bounds[b - 1] as number)) throw bad(`${at}.histogram.lowerBounds`, 'must be in strictly increasing order');
    }
    return { field: stored.field, kind, lowerBounds: bounds as number[] };
  });
}

/**
 * The results in Google's shape, each naming its field as the request did (`paths`): int64 counts
 * as strings; a histogram's n+1 buckets, the first from -Infinity and the last to Infinity
 * (ProtoJSON's spelling of infinite doubles); a frequency's values as the version spells them.
 */
export function toAggregationResults(aggregations: AssetAggregation[], results: AssetAggregateResult[], paths: AssetFieldPaths): AggregateResponse {
  return {
    results: results.map((r, i) => {
      const field = paths.wire.get(aggregations[i].field) as string;
      switch (r.kind) {
        case 'count':
          return { field, count: r.value === 0 ? {} : { value: String(r.value) } };
        case 'sum':
          return { field, sum: r.value === 0 ? {} : { value: r.value } };
        case 'histogram': {
          const bounds = aggregations[i].lowerBounds ?? [];
          // ProtoJSON leaves a bound of 0 (a default) out, like a count of 0.
          const bound = (v: number | string) => (v === 0 ? undefined : v);
          const buckets = r.counts.map((count, b) => ({
            ...(bound(b === 0 ? '-Infinity' : bounds[b - 1]) !== undefined ? { lowerBound: b === 0 ? '-Infinity' : bounds[b - 1] } : {}),
            ...(bound(b < bounds.length ? bounds[b] : 'Infinity') !== undefined ? { upperBound: b < bounds.length ? bounds[b] : 'Infinity' } : {}),
            ...(count !== 0 ? { count: String(count) } : {}),
          }));
          return { field, histogram: { buckets } };
        }
        case 'frequency': {
          const values = frequencyValues(r.values, paths.enums.get(aggregations[i].field));
          return { field, frequency: values.length === 0 ? {} : { values: Object.fromEntries(values.map(([v, n]) => [v, String(n)])) } };
        }
      }
    }),
  };
}

/**
 * A frequency's stored values in the version's spelling: values one name stands for are counted
 * together (v1's `SUSPENDED`: `poweredOff` and `suspended`); a value the version has not is an
 * unset field there, and not counted.
 */
function frequencyValues(values: Array<[string, number]>, enumDiff: EnumDifference | undefined): Array<[string, number]> {
  if (!enumDiff) return values;
  const counts = new Map<string, number>();
  for (const [value, n] of values) {
    const spelled = writeEnumValue(enumDiff, value);
    if (spelled !== undefined) counts.set(spelled, (counts.get(spelled) ?? 0) + n);
  }
  return [...counts];
}
