/** Program wiring with `pulumi.runtime.setMocks`: type tokens, inputs reaching the engine, outputs. */
import * as pulumi from '@pulumi/pulumi';

const seen: Array<{ type: string; name: string; inputs: Record<string, unknown> }> = [];

pulumi.runtime.setMocks(
  {
    newResource(args) {
      seen.push({ type: args.type, name: args.name, inputs: args.inputs });
      // The engine's state: the inputs, plus one marker per output a real provider computes. The
      // test asserts no value the mock makes up as if it were behaviour: only that each output
      // property of a class reads the state field of its own name (the marker names the field).
      const outputs: Record<string, unknown> = { ...args.inputs };
      for (const field of ['etag', 'project', 'name', 'state', 'executionReport']) outputs[field] = `state.${field}`;
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
    // Each output property reads the state field of its own name.
    expect(await output(binding.etag)).toBe('state.etag');
    expect(await output(job.state)).toBe('state.state');
    expect(await output(job.executionReport)).toBe('state.executionReport');
    // What the classes hand the engine: exactly the program's inputs and the serialized provider.
    expect(seen.find((r) => r.name === 'viewers')?.inputs).toEqual({
      __provider: expect.any(String),
      name: 'projects/p1/locations/global/endpointPolicies/ep',
      role: 'roles/viewer',
      members: ['user:a@example.com'],
    });
    expect(seen.find((r) => r.name === 'inventory')?.inputs).toEqual({
      __provider: expect.any(String),
      importJobId: 'inv',
      assetSource: 'projects/p1/locations/us-central1/sources/s1',
      gcsPayload: { format: 'IMPORT_JOB_FORMAT_RVTOOLS_XLSX', path: 'gs://bkt/x.xlsx' },
    });
  });

  it('types the companion resources too', async () => {
    const source = new local.Source('src', { sourceId: 'src', type: 'SOURCE_TYPE_UPLOAD' });
    expect(await output(source.urn)).toContain('pulumi-nodejs:dynamic/migrationcenter/v1alpha1:Source');
    const policy = new local.EndpointPolicy('ep', { endpointPolicyId: 'ep', type: 'SIDECAR_PROXY', endpointMatcher: {} });
    expect(await output(policy.urn)).toContain('pulumi-nodejs:dynamic/networkservices/v1:EndpointPolicy');
  });

  // The SDK resolves only the outputs a resource registers (an input or an output-only key): a
  // computed field the program does not give stayed undefined (an export of it vanished).
  it('resolves the state the service computes without the program giving it', async () => {
    const report = new local.Report('tco', { reportConfigId: 'wave-1', reportId: 'tco', type: 'TOTAL_COST_OF_OWNERSHIP' });
    const client = new local.DiscoveryClient('dc', {
      discoveryClientId: 'dc',
      serviceAccount: 'collector@p1.iam.gserviceaccount.com',
      source: 'projects/p1/locations/global/sources/s1',
    });
    expect(await output(report.state)).toBe('state.state');
    expect(await output(client.state)).toBe('state.state');
    expect(seen.find((r) => r.name === 'tco')?.inputs).not.toHaveProperty('state');
  });
});
