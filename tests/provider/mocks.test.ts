/** Program wiring with `pulumi.runtime.setMocks`: type tokens, inputs reaching the engine, outputs. */
import * as pulumi from '@pulumi/pulumi';

const seen: Array<{ type: string; name: string; inputs: Record<string, unknown> }> = [];

pulumi.runtime.setMocks(
  {
    newResource(args) {
      seen.push({ type: args.type, name: args.name, inputs: args.inputs });
      const outputs: Record<string, unknown> = { ...args.inputs };
      if (args.type.endsWith(':EndpointPolicyIamBinding')) Object.assign(outputs, { etag: 'BwYz', project: 'p1' });
      if (args.type.endsWith(':ImportJob')) {
        Object.assign(outputs, {
          name: `projects/p1/locations/global/importJobs/${String(args.inputs.importJobId)}`,
          state: 'IMPORT_JOB_STATE_COMPLETED',
          executionReport: { framesReported: 2, totalRowsCount: 2, executionErrors: { fileValidations: [], jobErrors: [] } },
        });
      }
      return { id: `${args.name}-id`, state: outputs };
    },
    call: () => ({}),
  },
  'project',
  'stack',
  false,
);

// Loaded after setMocks, as Pulumi's testing guide does.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const local = require('../../provider') as typeof import('../../provider');

const output = <T>(o: pulumi.Output<T>): Promise<T> => new Promise((resolve) => o.apply(resolve));

describe('programs using the classes', () => {
  it('registers the dynamic type tokens and wires inputs to outputs', async () => {
    const binding = new local.EndpointPolicyIamBinding('viewers', {
      name: 'projects/p1/locations/global/endpointPolicies/ep',
      role: 'roles/viewer',
      members: ['user:a@example.com'],
    });
    const job = new local.ImportJob('inventory', {
      importJobId: 'inv',
      assetSource: 'projects/p1/locations/us-central1/sources/s1',
      gcsPayload: { format: 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX', path: 'gs://bkt/x.xlsx' },
    });
    expect(await output(binding.urn)).toContain('pulumi-nodejs:dynamic/networkservices/v1:EndpointPolicyIamBinding');
    expect(await output(job.urn)).toContain('pulumi-nodejs:dynamic/migrationcenter/v1alpha1:ImportJob');
    expect(await output(binding.etag)).toBe('BwYz');
    expect(await output(binding.members)).toEqual(['user:a@example.com']);
    expect(await output(job.state)).toBe('IMPORT_JOB_STATE_COMPLETED');
    expect(await output(job.executionReport)).toMatchObject({ totalRowsCount: 2 });
    const registered = seen.find((r) => r.name === 'inventory');
    expect(registered?.inputs).toMatchObject({ importJobId: 'inv', gcsPayload: { path: 'gs://bkt/x.xlsx' } });
    expect(typeof registered?.inputs.__provider).toBe('string');
  });

  it('types the companion resources too', async () => {
    const source = new local.Source('src', { sourceId: 'src', type: 'SOURCE_TYPE_UPLOAD' });
    expect(await output(source.urn)).toContain('pulumi-nodejs:dynamic/migrationcenter/v1alpha1:Source');
    const policy = new local.EndpointPolicy('ep', { endpointPolicyId: 'ep', type: 'SIDECAR_PROXY', endpointMatcher: {} });
    expect(await output(policy.urn)).toContain('pulumi-nodejs:dynamic/networkservices/v1:EndpointPolicy');
  });
});
