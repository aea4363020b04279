/**
 * The lifecycle of a plain Google REST resource (create with `?{id}=`, get, patch with
 * `updateMask`, delete; long-running operations), shared by the companion resources
 * EndpointPolicy, Source and Migration Center's Group, PreferenceSet, ReportConfig, Report and
 * DiscoveryClient.
 *
 * `requestId`, where the resource takes one, is sent with the create as Google's idempotency key:
 * a retried create does the work once. It is not sent with updates and deletes (one id names one
 * request: Google refuses its reuse for another). Changing it alone changes nothing.
 */
import type * as pulumi from '@pulumi/pulumi';
import { validate, type SchemaName } from '../schemas';
import type { GoogleApiName } from './backends';
import { isNotFound, type Operation } from './client';
import { clientFor, containsUnknown, defaultLocation, defaultProject, sameJson, withoutUndefined } from './runtime';

export interface RestResourceSpec {
  schema: SchemaName;
  api: GoogleApiName;
  apiVersion: 'v1' | 'v1alpha1';
  /** Collection under `projects/{p}/locations/{l}`, e.g. `endpointPolicies`. */
  collection: string;
  /** The input naming the resource's ID, e.g. `endpointPolicyId`. */
  idField: string;
  /** Body fields, updated in place through `updateMask`. */
  bodyFields: readonly string[];
  /** Output-only fields copied from the server's resource. */
  outputFields: readonly string[];
  /**
   * The parent when it is a resource under the location: reports live under
   * `reportConfigs/{reportConfigId}`. Its id input is part of the name: a change replaces.
   */
  parent?: { collection: string; idField: string };
  /** Google has no update method (report configs, reports): a change of any body field replaces. */
  createOnly?: boolean;
  /** Body fields Google lets a create set but no update change (a discovery client's `source`): a change replaces. */
  immutableFields?: readonly string[];
  /** The resource takes `requestId` (its create carries it as a query parameter). */
  requestId?: boolean;
  /** Query parameters of every read (a report's `view`, whose default leaves out the summary). */
  readQuery?: Record<string, string>;
  /** Rules across fields that a JSON Schema says badly (two fields that exclude each other). */
  crossFieldFailures?: (inputs: Record<string, unknown>) => pulumi.dynamic.CheckFailure[];
}

type Props = Record<string, unknown>;

const PLACE_FIELDS = ['project', 'location'] as const;

export function restResource(spec: RestResourceSpec) {
  const client = () => clientFor(spec.api);
  const wait = (op: Operation) => client().waitForOperation(op, { apiVersion: spec.apiVersion, initialPollMs: 100, maxPollMs: 2000 });
  const parentOf = (p: Props) => {
    const location = `projects/${String(p.project)}/locations/${String(p.location)}`;
    return spec.parent ? `${location}/${spec.parent.collection}/${String(p[spec.parent.idField])}` : location;
  };
  const nameOf = (p: Props) => `${parentOf(p)}/${spec.collection}/${String(p[spec.idField])}`;
  const body = (p: Props) => withoutUndefined(Object.fromEntries(spec.bodyFields.map((f) => [f, p[f]])));
  const requestQuery = (p: Props): Record<string, string> =>
    spec.requestId && typeof p.requestId === 'string' && p.requestId !== '' ? { requestId: p.requestId } : {};
  const parentPattern = spec.parent ? `/${spec.parent.collection}/([^/]+)` : '';
  const idPattern = new RegExp(`^projects/([^/]+)/locations/([^/]+)${parentPattern}/${spec.collection}/([^/]+)$`);
  const nameFields = [spec.idField, ...(spec.parent ? [spec.parent.idField] : []), ...PLACE_FIELDS];
  const namePattern = spec.parent
    ? `projects/{project}/locations/{location}/${spec.parent.collection}/{${spec.parent.idField}}/${spec.collection}/{id}`
    : `projects/{project}/locations/{location}/${spec.collection}/{id}`;

  /** The inputs with the server's values of the fields the user set (server defaults of unset fields stay out, so they never show as a diff). */
  function outputs(inputs: Props, resource: Props): Props {
    const out: Props = { ...inputs };
    for (const f of spec.bodyFields) if (inputs[f] !== undefined && resource[f] !== undefined) out[f] = resource[f];
    for (const f of spec.outputFields) out[f] = resource[f];
    return withoutUndefined(out);
  }

  return {
    check(_olds: pulumi.Inputs, news: pulumi.Inputs): pulumi.dynamic.CheckResult {
      const raw: Props = { ...news };
      delete raw.__provider;
      delete raw.name;
      const inputs: Props = withoutUndefined({ project: defaultProject(), location: defaultLocation(), ...raw });
      const known = Object.fromEntries(Object.entries(inputs).filter(([, v]) => !containsUnknown(v)));
      const failures = validate(spec.schema, known).filter((f) => !(f.reason === 'is required' && containsUnknown(raw[f.property])));
      failures.push(...(spec.crossFieldFailures?.(known) ?? []));
      if (inputs.project === undefined) {
        failures.push({ property: 'project', reason: 'is required: set it, or the stack config google-native-local:project, or GOOGLE_CLOUD_PROJECT' });
      }
      // The name follows from the inputs: giving it here makes it known at preview time, so a
      // change that keeps the name (a new displayName) does not make every resource that refers
      // to the name preview as replaced.
      const place = nameFields.map((f) => inputs[f]);
      if (place.every((v) => typeof v === 'string' && !containsUnknown(v))) inputs.name = nameOf(inputs);
      return { inputs, failures };
    },

    diff(_id: string, olds: Props, news: Props): pulumi.dynamic.DiffResult {
      const changed = spec.bodyFields.filter((f) => !sameJson(olds[f], news[f]));
      const replacing = (f: string) => spec.createOnly === true || (spec.immutableFields ?? []).includes(f);
      const renamed = nameFields.filter((f) => !sameJson(olds[f], news[f]));
      const replaces = [...renamed, ...changed.filter(replacing)];
      const updates = changed.filter((f) => !replacing(f));
      return {
        changes: replaces.length > 0 || updates.length > 0,
        replaces,
        stables: replaces.length > 0 ? [] : [...nameFields, 'name'],
        // One name holds one resource: a replace that keeps the name (a field Google cannot change)
        // must delete the old resource first, or the create is ALREADY_EXISTS. A new name can be
        // created before the old one goes.
        deleteBeforeReplace: replaces.length > 0 && renamed.length === 0,
      };
    },

    async create(inputs: Props): Promise<pulumi.dynamic.CreateResult> {
      const op = await client().post<Operation>(`/${spec.apiVersion}/${parentOf(inputs)}/${spec.collection}`, body(inputs), {
        [spec.idField]: String(inputs[spec.idField]),
        ...requestQuery(inputs),
      });
      await wait(op);
      const name = nameOf(inputs);
      return { id: name, outs: outputs(inputs, await client().get<Props>(`/${spec.apiVersion}/${name}`, spec.readQuery)) };
    },

    async update(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
      const mask = spec.bodyFields.filter((f) => !sameJson(olds[f], news[f]));
      if (mask.length > 0) {
        await wait(await client().patch<Operation>(`/${spec.apiVersion}/${id}`, body(news), { updateMask: mask.join(',') }));
      }
      return { outs: outputs(news, await client().get<Props>(`/${spec.apiVersion}/${id}`, spec.readQuery)) };
    },

    async remove(id: string): Promise<void> {
      try {
        await wait(await client().delete<Operation>(`/${spec.apiVersion}/${id}`));
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    },

    async read(id: string): Promise<pulumi.dynamic.ReadResult> {
      const match = idPattern.exec(id);
      if (!match) throw new Error(`'${id}' is not a ${spec.collection} name: expected ${namePattern}`);
      let resource: Props;
      try {
        resource = await client().get<Props>(`/${spec.apiVersion}/${id}`, spec.readQuery);
      } catch (err) {
        if (isNotFound(err)) return { id: '' };
        throw err;
      }
      const ids = spec.parent ? { [spec.parent.idField]: match[3], [spec.idField]: match[4] } : { [spec.idField]: match[3] };
      const inputs: Props = withoutUndefined({ project: match[1], location: match[2], ...ids, ...body(resource), name: id });
      return { id, props: outputs(inputs, resource), inputs };
    },
  };
}
