/**
 * `npm run example`: the resources of examples/basic, driven through the real plugin protocol
 * (the dynamic-provider host of @pulumi/pulumi, over gRPC) against the embedded default backend:
 * `up`, a second `up` that must change nothing, then `destroy`. It plays the engine's part for
 * a fixed graph, because the Pulumi CLI cannot be installed everywhere.
 */
import { createTestProgram } from '../support/harness/program';
import { dynamicUrn, serializeProvider, startProviderHost, type PropertyMap, type ProviderHost } from '../support/harness/provider-host';
import { DEFAULT_PROJECT, inventoryJob, sidecarsPolicy, temporaryAdminsBinding, uploadsSource, viewersBinding } from '../examples/basic/resources';

type Outputs = Record<string, PropertyMap>;

interface Declared {
  name: string;
  type: string;
  provider: string;
  inputs(outputs: Outputs): PropertyMap;
}

const project = DEFAULT_PROJECT;
const nameOf = (outputs: PropertyMap) => outputs.name as string;

/** The graph of examples/basic/index.ts (same arguments, from examples/basic/resources.ts), in dependency order. */
const GRAPH: Declared[] = [
  { name: 'sidecars', type: 'networkservices/v1:EndpointPolicy', provider: 'endpointPolicyProvider', inputs: () => sidecarsPolicy(project) },
  {
    name: 'viewers',
    type: 'networkservices/v1:EndpointPolicyIamBinding',
    provider: 'endpointPolicyIamBindingProvider',
    inputs: (o) => viewersBinding(nameOf(o.sidecars)),
  },
  {
    name: 'temporary-admins',
    type: 'networkservices/v1:EndpointPolicyIamBinding',
    provider: 'endpointPolicyIamBindingProvider',
    inputs: (o) => temporaryAdminsBinding(nameOf(o.sidecars)),
  },
  { name: 'uploads', type: 'migrationcenter/v1alpha1:Source', provider: 'sourceProvider', inputs: () => uploadsSource(project) },
  { name: 'inventory', type: 'migrationcenter/v1alpha1:ImportJob', provider: 'importJobProvider', inputs: (o) => inventoryJob(project, nameOf(o.uploads)) },
];

interface StateEntry {
  id: string;
  urn: string;
  provider: string;
  inputs: PropertyMap;
  outputs: PropertyMap;
}

async function up(host: ProviderHost, providers: Record<string, string>, state: Map<string, StateEntry>): Promise<string[]> {
  const outputs: Outputs = {};
  const actions: string[] = [];
  for (const r of GRAPH) {
    const urn = dynamicUrn(r.type, r.name);
    host.provider = providers[r.provider];
    const old = state.get(urn);
    const checked = await host.check(urn, old?.inputs ?? {}, r.inputs(outputs));
    if (checked.failures.length) throw new Error(`${r.name}: ${JSON.stringify(checked.failures)}`);
    if (!old) {
      const created = await host.create(urn, checked.inputs);
      state.set(urn, { id: created.id, urn, provider: r.provider, inputs: checked.inputs, outputs: created.properties });
      actions.push(`+ ${r.type} ${r.name} created (${created.id})`);
    } else {
      const diff = await host.diff(old.id, urn, old.outputs, checked.inputs, old.inputs);
      if (diff.changes === 'none') {
        actions.push(`  ${r.type} ${r.name} unchanged`);
      } else if (diff.replaces.length === 0) {
        const updated = await host.update(old.id, urn, old.outputs, checked.inputs);
        state.set(urn, { ...old, inputs: checked.inputs, outputs: updated.properties });
        actions.push(`~ ${r.type} ${r.name} updated`);
      } else {
        throw new Error(`${r.name}: this example never replaces (${diff.replaces.join(', ')})`);
      }
    }
    outputs[r.name] = state.get(urn)!.outputs;
  }
  return actions;
}

async function main(): Promise<void> {
  const program = await createTestProgram();
  const mod = program.requirePackage<Record<string, object>>('dist/provider');
  const providers: Record<string, string> = {};
  for (const name of new Set(GRAPH.map((r) => r.provider))) providers[name] = await serializeProvider(mod[name]);
  const host = await startProviderHost({ cwd: program.dir, provider: providers.endpointPolicyProvider, project: 'example' });
  const state = new Map<string, StateEntry>();
  try {
    await host.configure({});
    console.log(`program folder: ${program.dir} (embedded emulator state in .google-native-local/)\n`);
    console.log('pulumi up');
    for (const line of await up(host, providers, state)) console.log(line);
    const job = state.get(dynamicUrn('migrationcenter/v1alpha1:ImportJob', 'inventory'))!.outputs;
    console.log('\nOutputs:');
    console.log(JSON.stringify({ jobState: job.state, validationReport: job.validationReport, executionReport: job.executionReport }, null, 2));

    console.log('\npulumi up (again)');
    const second = await up(host, providers, state);
    for (const line of second) console.log(line);
    if (second.some((line) => !line.endsWith('unchanged'))) throw new Error('the second run changed something');

    console.log('\npulumi destroy');
    for (const entry of [...state.values()].reverse()) {
      host.provider = providers[entry.provider];
      await host.delete(entry.id, entry.urn, entry.outputs);
      console.log(`- ${entry.urn.split('::')[2]} ${entry.urn.split('::')[3]} deleted`);
    }
  } finally {
    await host.close();
    program.cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
