/**
 * Preference sets over the REST wire: the whole VirtualMachinePreferences message as Google's
 * client has it, Google's enum values and documented ranges, updateMask with dotted paths, list
 * order and paging, delete; then the same through Google's newest client (googleapis-latest).
 */
import type { FastifyInstance } from 'fastify';
import { migrationcenter } from 'googleapis-latest/build/src/apis/migrationcenter';
import { startEmulator, type RunningEmulator } from '../../../backend-emulator';
import { migrationCenterOf } from '../../../backend-emulator/migrationcenter/routes';
import { BASE, EMPTY_TYPE, PARENT, call, googleError, newApp, ok, violations } from '../../support/migrationcenter';
import { sharedApp } from '../../support/app';

const PREFERENCE_SET_TYPE = 'type.googleapis.com/google.cloud.migrationcenter.v1alpha1.PreferenceSet';

/** Every part of VirtualMachinePreferences, with values Google's discovery document lists. */
const FULL_VM_PREFERENCES = {
  targetProduct: 'COMPUTE_MIGRATION_TARGET_PRODUCT_COMPUTE_ENGINE',
  regionPreferences: { preferredRegions: ['europe-west4', 'us-central1'] },
  commitmentPlan: 'COMMITMENT_PLAN_THREE_YEARS',
  sizingOptimizationStrategy: 'SIZING_OPTIMIZATION_STRATEGY_CUSTOM',
  sizingOptimizationCustomParameters: {
    aggregationMethod: 'AGGREGATION_METHOD_PEAK',
    cpuUsagePercentage: 80,
    memoryUsagePercentage: 90,
    storageMultiplier: 1.5,
  },
  computeEnginePreferences: {
    machinePreferences: { allowedMachineSeries: [{ code: 'E2' }, { code: 'N2D' }] },
    licenseType: 'LICENSE_TYPE_BRING_YOUR_OWN_LICENSE',
    persistentDiskType: 'PERSISTENT_DISK_TYPE_BALANCED',
    multithreading: 'MULTITHREADING_DISABLED_WITH_COMPENSATION',
    osPricingPreferences: { rhel: { commitmentPlan: 'COMMITMENT_PLAN_1_YEAR', licenseType: 'LICENSE_TYPE_DEFAULT' } },
  },
  vmwareEnginePreferences: {
    cpuOvercommitRatio: 2.5,
    memoryOvercommitRatio: 1.25,
    storageDeduplicationCompressionRatio: 3,
    commitmentPlan: 'COMMITMENT_3_YEAR_UPFRONT_PAYMENT',
    serviceType: 'SERVICE_TYPE_PORTABLE_LICENSE',
    licenseDiscountPercentage: 12.5,
    machinePreferences: { allowedMachineSeries: [{ code: 've2-standard-128' }], protectedNodes: 'PROTECTED_NODES_DISABLED' },
  },
  soleTenancyPreferences: {
    cpuOvercommitRatio: 1.5,
    hostMaintenancePolicy: 'HOST_MAINTENANCE_POLICY_MIGRATE_WITHIN_NODE_GROUP',
    commitmentPlan: 'COMMITMENT_1_YEAR',
    nodeTypes: [{ nodeName: 'n2-node-80-640' }],
  },
  networkCostParameters: { estimatedEgressTrafficPercentage: 30 },
  estimatedUsage: { estimatedCpuPercentage: 40, estimatedMemoryPercentage: 60, estimatedDiskPercentage: 70 },
};

describe('over REST', () => {
  let app: FastifyInstance;
  const sharedAppOfBlock = sharedApp(() => newApp());
  beforeEach(async () => {
    app = sharedAppOfBlock();
    await app.ready();
  });

  const create = (id: string, body: Record<string, unknown>) => call(app, 'POST', `${BASE}/preferenceSets?preferenceSetId=${id}`, body);

  test('create answers a done Operation with the whole preference set; get answers the same set', async () => {
    const op = ok(await create('ps-1', { displayName: 'Three years', description: 'default', virtualMachinePreferences: FULL_VM_PREFERENCES }));
    expect(op.done).toBe(true);
    expect(op.response['@type']).toBe(PREFERENCE_SET_TYPE);
    expect(op.response).toMatchObject({ name: `${PARENT}/preferenceSets/ps-1`, displayName: 'Three years', virtualMachinePreferences: FULL_VM_PREFERENCES });
    const got = ok(await call(app, 'GET', `${BASE}/preferenceSets/ps-1`));
    expect(got).toEqual({
      name: `${PARENT}/preferenceSets/ps-1`,
      createTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updateTime: got.createTime,
      displayName: 'Three years',
      description: 'default',
      virtualMachinePreferences: FULL_VM_PREFERENCES,
    });
  });

  test('the database preferences and the top-level region preferences are kept as sent', async () => {
    const databasePreferences = {
      mssqlToCloudSqlForSqlServerPreferences: {
        common: {
          edition: 'CLOUD_SQL_EDITION_ENTERPRISE',
          zoneAvailability: 'CLOUD_SQL_ZONE_AVAILABILITY_REGIONAL',
          backup: { backupMode: 'BACKUP_MODE_ENABLED' },
        },
        versionType: 'VERSION_TYPE_STANDARD',
      },
    };
    ok(await create('db', { databasePreferences, regionPreferences: { preferredRegions: ['asia-southeast1'] } }));
    expect(ok(await call(app, 'GET', `${BASE}/preferenceSets/db`))).toMatchObject({
      databasePreferences,
      regionPreferences: { preferredRegions: ['asia-southeast1'] },
    });
  });

  test('enum zero values and zero numbers are unset: the answer leaves them out', async () => {
    ok(
      await create('zeros', {
        virtualMachinePreferences: {
          commitmentPlan: 'COMMITMENT_PLAN_UNSPECIFIED',
          vmwareEnginePreferences: { cpuOvercommitRatio: 0 },
          targetProduct: 'COMPUTE_MIGRATION_TARGET_PRODUCT_VMWARE_ENGINE',
        },
      }),
    );
    const got = ok(await call(app, 'GET', `${BASE}/preferenceSets/zeros`));
    expect(got.virtualMachinePreferences).toEqual({ vmwareEnginePreferences: {}, targetProduct: 'COMPUTE_MIGRATION_TARGET_PRODUCT_VMWARE_ENGINE' });
  });

  test.each([
    [
      'an enum value Google does not have',
      { commitmentPlan: 'COMMITMENT_PLAN_FIVE_YEARS' },
      'virtualMachinePreferences.commitmentPlan',
      /^must be one of "COMMITMENT_PLAN_UNSPECIFIED"/,
    ],
    [
      'another enum type’s value',
      { vmwareEnginePreferences: { commitmentPlan: 'COMMITMENT_PLAN_ONE_YEAR' } },
      'virtualMachinePreferences.vmwareEnginePreferences.commitmentPlan',
      /ON_DEMAND/,
    ],
    ['a target product in lower case', { targetProduct: 'compute_engine' }, 'virtualMachinePreferences.targetProduct', /must be one of/],
    [
      'a VMware CPU overcommit ratio above 8',
      { vmwareEnginePreferences: { cpuOvercommitRatio: 8.5 } },
      'virtualMachinePreferences.vmwareEnginePreferences.cpuOvercommitRatio',
      /at most 8/,
    ],
    [
      'a sole-tenancy CPU overcommit ratio below 1',
      { soleTenancyPreferences: { cpuOvercommitRatio: 0.5 } },
      'virtualMachinePreferences.soleTenancyPreferences.cpuOvercommitRatio',
      /^must be between 1.0 and 2.0/,
    ],
    [
      'a memory overcommit ratio not on the list',
      { vmwareEnginePreferences: { memoryOvercommitRatio: 1.3 } },
      'virtualMachinePreferences.vmwareEnginePreferences.memoryOvercommitRatio',
      /1.0, 1.25, 1.5, 1.75, 2.0/,
    ],
    [
      'a licence discount without the portable licence',
      { vmwareEnginePreferences: { licenseDiscountPercentage: 10 } },
      'virtualMachinePreferences.vmwareEnginePreferences.serviceType',
      /is required/,
    ],
    [
      'an egress percentage above 100',
      { networkCostParameters: { estimatedEgressTrafficPercentage: 101 } },
      'virtualMachinePreferences.networkCostParameters.estimatedEgressTrafficPercentage',
      /at most 100/,
    ],
    [
      'a region that is not a region name',
      { regionPreferences: { preferredRegions: ['Iowa'] } },
      'virtualMachinePreferences.regionPreferences.preferredRegions[0]',
      /region name/,
    ],
    [
      'an unknown field of a machine series',
      { computeEnginePreferences: { machinePreferences: { allowedMachineSeries: [{ series: 'E2' }] } } },
      // Google's JSON parser names the message the unknown name is in, by its proto path.
      'preference_set.virtual_machine_preferences.compute_engine_preferences.machine_preferences.allowed_machine_series[0]',
      /^Invalid JSON payload received\. Unknown name "series" at '[a-z_.[\]0-9]+': Cannot find field\.$/,
    ],
  ])('%s is INVALID_ARGUMENT naming the field', async (_what, vm, field, reason) => {
    const err = googleError(await create('bad', { virtualMachinePreferences: vm }), 400, 'INVALID_ARGUMENT');
    expect(violations(err).map((v) => v.field)).toEqual([field]);
    expect(violations(err)[0].description).toMatch(reason);
    googleError(await call(app, 'GET', `${BASE}/preferenceSets/bad`), 404, 'NOT_FOUND');
  });

  test("an unknown top-level field is refused by Google's JSON parser, before any rule of the method (the display name over 63 characters is not reached)", async () => {
    const err = googleError(await create('bad', { displayName: 'x'.repeat(64), businessGoal: 'COST' }), 400, 'INVALID_ARGUMENT');
    const text = 'Invalid JSON payload received. Unknown name "businessGoal" at \'preference_set\': Cannot find field.';
    expect([err.message, violations(err)]).toEqual([text, [{ field: 'preference_set', description: text }]]);
  });

  test('the id is checked, and a second create of one id is ALREADY_EXISTS', async () => {
    expect(violations(googleError(await create('Bad_Id', {}), 400, 'INVALID_ARGUMENT'))[0].field).toBe('preferenceSetId');
    expect(violations(googleError(await call(app, 'POST', `${BASE}/preferenceSets`, {}), 400, 'INVALID_ARGUMENT'))[0]).toEqual({
      field: 'preferenceSetId',
      description: 'is required',
    });
    ok(await create('ps', {}));
    googleError(await create('ps', {}), 409, 'ALREADY_EXISTS');
  });

  test('patch with a dotted updateMask changes that field only; a masked field the body leaves out is cleared', async () => {
    ok(await create('ps', { displayName: 'one', virtualMachinePreferences: FULL_VM_PREFERENCES }));
    const op = ok(
      await call(
        app,
        'PATCH',
        `${BASE}/preferenceSets/ps?updateMask=virtualMachinePreferences.commitmentPlan,virtual_machine_preferences.compute_engine_preferences.license_type`,
        {
          displayName: 'ignored: not in the mask',
          virtualMachinePreferences: { commitmentPlan: 'COMMITMENT_PLAN_NONE', targetProduct: 'COMPUTE_MIGRATION_TARGET_PRODUCT_SOLE_TENANCY' },
        },
      ),
    );
    expect(op.done).toBe(true);
    const got = ok(await call(app, 'GET', `${BASE}/preferenceSets/ps`));
    expect(got.displayName).toBe('one');
    expect(got.virtualMachinePreferences.commitmentPlan).toBe('COMMITMENT_PLAN_NONE');
    expect(got.virtualMachinePreferences.targetProduct).toBe('COMPUTE_MIGRATION_TARGET_PRODUCT_COMPUTE_ENGINE');
    expect(got.virtualMachinePreferences.computeEnginePreferences).toEqual({
      machinePreferences: { allowedMachineSeries: [{ code: 'E2' }, { code: 'N2D' }] },
      persistentDiskType: 'PERSISTENT_DISK_TYPE_BALANCED',
      multithreading: 'MULTITHREADING_DISABLED_WITH_COMPENSATION',
      osPricingPreferences: { rhel: { commitmentPlan: 'COMMITMENT_PLAN_1_YEAR', licenseType: 'LICENSE_TYPE_DEFAULT' } },
    });
    expect(got.virtualMachinePreferences.vmwareEnginePreferences).toEqual(FULL_VM_PREFERENCES.vmwareEnginePreferences);
    expect(got.updateTime >= got.createTime).toBe(true);
  });

  test('updateMask: required, and every path names a field of PreferenceSet; a merged result is checked too', async () => {
    ok(
      await create('ps', {
        virtualMachinePreferences: { vmwareEnginePreferences: { serviceType: 'SERVICE_TYPE_PORTABLE_LICENSE', licenseDiscountPercentage: 5 } },
      }),
    );
    const patch = (mask: string, body: Record<string, unknown>) => call(app, 'PATCH', `${BASE}/preferenceSets/ps${mask}`, body);
    expect(violations(googleError(await patch('', {}), 400, 'INVALID_ARGUMENT'))[0].field).toBe('updateMask');
    const unknown = violations(
      googleError(await patch('?updateMask=virtualMachinePreferences.computeEnginePreferences.licenceType', {}), 400, 'INVALID_ARGUMENT'),
    )[0];
    expect(unknown).toEqual({
      field: 'updateMask',
      description:
        "'virtualMachinePreferences.computeEnginePreferences.licenceType' does not name a field of PreferenceSet ('virtualMachinePreferences.computeEnginePreferences.licenceType' is not one)",
    });
    expect(violations(googleError(await patch('?updateMask=createTime', {}), 400, 'INVALID_ARGUMENT'))[0].description).toMatch(
      /^'createTime' cannot be updated/,
    );
    // Clearing the service type alone would leave a discount without the portable licence.
    const merged = googleError(await patch('?updateMask=virtualMachinePreferences.vmwareEnginePreferences.serviceType', {}), 400, 'INVALID_ARGUMENT');
    expect(violations(merged).map((v) => v.field)).toEqual(['virtualMachinePreferences.vmwareEnginePreferences.serviceType']);
    expect(ok(await call(app, 'GET', `${BASE}/preferenceSets/ps`)).virtualMachinePreferences.vmwareEnginePreferences.serviceType).toBe(
      'SERVICE_TYPE_PORTABLE_LICENSE',
    );
    // `*` replaces every updatable field.
    ok(await patch('?updateMask=*', { displayName: 'all' }));
    const all = ok(await call(app, 'GET', `${BASE}/preferenceSets/ps`));
    expect([all.displayName, all.virtualMachinePreferences]).toEqual(['all', undefined]);
  });

  test('list orders by displayName and pages; delete answers Empty and the set is gone', async () => {
    for (const [id, name] of [
      ['a', 'Charlie'],
      ['b', 'Alpha'],
      ['c', 'Bravo'],
    ])
      ok(await create(id, { displayName: name }));
    const first = ok(await call(app, 'GET', `${BASE}/preferenceSets?orderBy=displayName&pageSize=2`));
    expect(first.preferenceSets.map((p: { displayName: string }) => p.displayName)).toEqual(['Alpha', 'Bravo']);
    const second = ok(await call(app, 'GET', `${BASE}/preferenceSets?orderBy=displayName&pageSize=2&pageToken=${first.nextPageToken}`));
    expect(second.preferenceSets.map((p: { displayName: string }) => p.displayName)).toEqual(['Charlie']);
    expect(second.nextPageToken).toBeUndefined();
    // Google's list has no filter parameter: the front end refuses it.
    googleError(await call(app, 'GET', `${BASE}/preferenceSets?filter=displayName=Alpha`), 400, 'INVALID_ARGUMENT');

    const op = ok(await call(app, 'DELETE', `${BASE}/preferenceSets/b`));
    expect([op.done, op.response['@type']]).toEqual([true, EMPTY_TYPE]);
    googleError(await call(app, 'GET', `${BASE}/preferenceSets/b`), 404, 'NOT_FOUND');
    googleError(await call(app, 'DELETE', `${BASE}/preferenceSets/b`), 404, 'NOT_FOUND');
    expect(ok(await call(app, 'GET', `${BASE}/preferenceSets`)).preferenceSets.map((p: { name: string }) => p.name)).toEqual([
      `${PARENT}/preferenceSets/a`,
      `${PARENT}/preferenceSets/c`,
    ]);
  });

  test('other families read a preference set through find(name)', async () => {
    ok(await create('ps', { displayName: 'kept' }));
    const { preferenceSets } = migrationCenterOf(app.emulator)!;
    expect(preferenceSets.find(`${PARENT}/preferenceSets/ps`)?.displayName).toBe('kept');
    expect(preferenceSets.find(`${PARENT}/preferenceSets/none`)).toBeUndefined();
  });
});

describe("through Google's newest client", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, inMemory: true, logLevel: 'silent' });
  });
  afterAll(() => emulator.close());

  test('create, get, list, patch and delete a preference set', async () => {
    const mc = migrationcenter({ version: 'v1alpha1', rootUrl: `${emulator.url}/`, retry: false, fetchImplementation: fetch });
    const sets = mc.projects.locations.preferenceSets;
    const created = await sets.create({
      parent: PARENT,
      preferenceSetId: 'client-set',
      requestBody: {
        displayName: 'From the client',
        virtualMachinePreferences: { targetProduct: 'COMPUTE_MIGRATION_TARGET_PRODUCT_COMPUTE_ENGINE', commitmentPlan: 'COMMITMENT_PLAN_ONE_YEAR' },
      },
    });
    expect(created.data.done).toBe(true);
    const name = `${PARENT}/preferenceSets/client-set`;
    expect((await sets.get({ name })).data).toMatchObject({
      name,
      displayName: 'From the client',
      virtualMachinePreferences: { targetProduct: 'COMPUTE_MIGRATION_TARGET_PRODUCT_COMPUTE_ENGINE', commitmentPlan: 'COMMITMENT_PLAN_ONE_YEAR' },
    });
    await sets.patch({
      name,
      updateMask: 'virtualMachinePreferences.sizingOptimizationStrategy',
      requestBody: { virtualMachinePreferences: { sizingOptimizationStrategy: 'SIZING_OPTIMIZATION_STRATEGY_AGGRESSIVE' } },
    });
    const listed = (await sets.list({ parent: PARENT })).data.preferenceSets ?? [];
    expect(listed.map((p) => [p.name, p.virtualMachinePreferences?.sizingOptimizationStrategy, p.virtualMachinePreferences?.commitmentPlan])).toEqual([
      [name, 'SIZING_OPTIMIZATION_STRATEGY_AGGRESSIVE', 'COMMITMENT_PLAN_ONE_YEAR'],
    ]);
    expect((await sets.delete({ name })).data.done).toBe(true);
    expect((await sets.list({ parent: PARENT })).data.preferenceSets).toBeUndefined();
  });
});
