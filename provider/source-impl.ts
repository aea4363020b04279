/**
 * The Source provider's work: a plain REST resource of migrationcenter/v1alpha1. `managed` (the
 * resource reference's spelling) is taken for google-native's `isManaged`, and only `isManaged`
 * is sent.
 */
import type * as pulumi from '@pulumi/pulumi';
import { restResource } from './rest-resource';

const base = restResource({
  schema: 'SourceArgs',
  api: 'migrationcenter',
  apiVersion: 'v1alpha1',
  collection: 'sources',
  idField: 'sourceId',
  bodyFields: ['displayName', 'description', 'type', 'priority', 'isManaged'],
  outputFields: ['name', 'createTime', 'updateTime', 'state', 'errorFrameCount', 'pendingFrameCount'],
  requestId: true,
  crossFieldFailures: (inputs) =>
    inputs.managed !== undefined && inputs.isManaged !== undefined
      ? [{ property: 'managed', reason: 'cannot be given together with isManaged: they are two names of one field' }]
      : [],
});

export function check(olds: pulumi.Inputs, news: pulumi.Inputs): pulumi.dynamic.CheckResult {
  const result = base.check(olds, news);
  const inputs = { ...(result.inputs as Record<string, unknown>) };
  // `managed` stays in the inputs as given (it may be read back as an output); `isManaged` is what diff and the body use.
  if (inputs.isManaged === undefined && inputs.managed !== undefined) inputs.isManaged = inputs.managed;
  return { inputs, failures: result.failures };
}

export const { diff, create, read, update, remove } = base;
