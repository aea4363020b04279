/** `PreferenceSet` (migrationcenter/v1alpha1): the preferences a report config pairs with a group. */
import * as pulumi from '@pulumi/pulumi';
import { RestDynamicResource } from './dynamic-resource';
import { lazyProvider } from './lazy-provider';
import type { PreferenceSetArgs } from './migration-center-types';
import type { VirtualMachinePreferencesResponse } from './migration-center-responses';

export const preferenceSetProvider: pulumi.dynamic.ResourceProvider = lazyProvider('preference-set-impl');

export class PreferenceSet extends RestDynamicResource {
  declare public readonly createTime: pulumi.Output<string>;
  declare public readonly description: pulumi.Output<string>;
  declare public readonly displayName: pulumi.Output<string>;
  declare public readonly location: pulumi.Output<string>;
  /** `projects/{project}/locations/{location}/preferenceSets/{preferenceSetId}`. */
  declare public readonly name: pulumi.Output<string>;
  declare public readonly preferenceSetId: pulumi.Output<string | undefined>;
  declare public readonly project: pulumi.Output<string>;
  declare public readonly requestId: pulumi.Output<string | undefined>;
  declare public readonly updateTime: pulumi.Output<string>;
  declare public readonly virtualMachinePreferences: pulumi.Output<VirtualMachinePreferencesResponse>;

  /** `args` is optional as in google-native (whose types leave `preferenceSetId` optional); check() requires the id. */
  constructor(name: string, args?: PreferenceSetArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      { implModule: 'preference-set-impl', module: 'migrationcenter/v1alpha1', type: 'PreferenceSet', outputsOnly: ['name', 'createTime', 'updateTime'] },
      name,
      args,
      opts,
    );
  }
}
