/**
 * Small engine-like sequences over a ProviderHost: what `pulumi up` does for one resource.
 */
import { CheckFailure, CreateResult, DiffResult, PropertyMap, ProviderHost, ReadResult } from './provider-host';

/** Check returned failures: the engine would stop here and show them per property. */
export class CheckFailedError extends Error {
  override readonly name = 'CheckFailedError';
  constructor(readonly failures: CheckFailure[]) {
    super(`check failed: ${failures.map((f) => `${f.property}: ${f.reason}`).join('; ')}`);
  }
}

/** Check then Create, as the engine does for a new resource; throws CheckFailedError on failures. */
export async function checkThenCreate(host: ProviderHost, urn: string, inputs: PropertyMap): Promise<{ inputs: PropertyMap; created: CreateResult }> {
  const checked = await host.check(urn, {}, inputs);
  if (checked.failures.length > 0) throw new CheckFailedError(checked.failures);
  const created = await host.create(urn, checked.inputs);
  return { inputs: checked.inputs, created };
}

/** Check, Create, then Read back by id with the created outputs (a refresh right after create). */
export async function createThenRead(
  host: ProviderHost,
  urn: string,
  inputs: PropertyMap,
): Promise<{ inputs: PropertyMap; created: CreateResult; read: ReadResult }> {
  const { inputs: checked, created } = await checkThenCreate(host, urn, inputs);
  const read = await host.read(created.id, urn, created.properties, checked);
  return { inputs: checked, created, read };
}

export interface LifecycleStep {
  action: 'create' | 'same' | 'update' | 'replace';
  id: string;
  /** Outputs after the step (the state the engine would store). */
  properties: PropertyMap;
  /** Checked inputs after the step. */
  inputs: PropertyMap;
  diff?: DiffResult;
}

/**
 * Applies each inputs object in turn, as successive `pulumi up`s of one resource:
 * Check, then Create (first time) or Diff and then nothing / Update / Replace (create-before-delete
 * unless Diff asked for deleteBeforeReplace). Throws CheckFailedError on check failures.
 */
export async function lifecycle(
  host: ProviderHost,
  urn: string,
  inputsSequence: PropertyMap[],
  options: { existing?: { id: string; properties: PropertyMap; inputs?: PropertyMap } } = {},
): Promise<LifecycleStep[]> {
  const steps: LifecycleStep[] = [];
  let current = options.existing
    ? { id: options.existing.id, properties: options.existing.properties, inputs: options.existing.inputs ?? options.existing.properties }
    : undefined;
  for (const news of inputsSequence) {
    if (!current) {
      const { inputs, created } = await checkThenCreate(host, urn, news);
      current = { id: created.id, properties: created.properties, inputs };
      steps.push({ action: 'create', ...current });
      continue;
    }
    const checked = await host.check(urn, current.inputs, news);
    if (checked.failures.length > 0) throw new CheckFailedError(checked.failures);
    const diff = await host.diff(current.id, urn, current.properties, checked.inputs, current.inputs);
    if (diff.changes === 'none') {
      current = { ...current, inputs: checked.inputs };
      steps.push({ action: 'same', ...current, diff });
    } else if (diff.replaces.length > 0) {
      const old = current;
      if (diff.deleteBeforeReplace) await host.delete(old.id, urn, old.properties);
      const created = await host.create(urn, checked.inputs);
      if (!diff.deleteBeforeReplace) await host.delete(old.id, urn, old.properties);
      current = { id: created.id, properties: created.properties, inputs: checked.inputs };
      steps.push({ action: 'replace', ...current, diff });
    } else {
      const updated = await host.update(current.id, urn, current.properties, checked.inputs, { oldInputs: current.inputs });
      current = { id: current.id, properties: updated.properties, inputs: checked.inputs };
      steps.push({ action: 'update', ...current, diff });
    }
  }
  return steps;
}
