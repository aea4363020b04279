/**
 * The CLI compiles every input schema once it listens (warmInputSchemas), one a turn of the event
 * loop, so that the first write of each kind does not compile its schema on the request thread.
 */
import { INPUT_SCHEMAS, isCompiled, validate, warmInputSchemas, type SchemaName } from '../../schemas';

test('warmInputSchemas compiles every input schema, yielding to the event loop between two', async () => {
  const names = INPUT_SCHEMAS.map((s) => s.title as SchemaName);
  expect(names).toContain('ImportJobArgs');
  expect(names.every((name) => isCompiled(name))).toBe(false);
  let turns = 0;
  const counter = setInterval(() => turns++, 0);
  try {
    await warmInputSchemas();
  } finally {
    clearInterval(counter);
  }
  expect(names.filter((name) => !isCompiled(name))).toEqual([]);
  // Other callbacks ran while it worked: it did not compile everything in one turn.
  expect(turns).toBeGreaterThan(0);
  // A compiled schema still validates as before: a displayName over 63 characters is refused.
  expect(validate('ImportJobArgs', { importJobId: 'j', assetSource: 'projects/p/locations/l/sources/s', displayName: 'x'.repeat(64) })).toEqual([
    expect.objectContaining({ property: 'displayName' }),
  ]);
});
