/**
 * The arguments of the example's resources, used by the Pulumi program (index.ts, with Outputs
 * wiring one resource to the next); the defaults are also read by tests/example/basic-program.test.ts.
 * `Ref` is whatever carries a name from one resource to the next.
 */
export const DEFAULT_PROJECT = 'example-project';

const csv = (text: string) => Buffer.from(text).toString('base64');

export function sidecarsPolicy(project: string) {
  return {
    project,
    location: 'global',
    endpointPolicyId: 'sidecars',
    type: 'SIDECAR_PROXY' as const,
    endpointMatcher: {
      metadataLabelMatcher: { metadataLabelMatchCriteria: 'MATCH_ANY' as const, metadataLabels: [{ labelName: 'app', labelValue: 'web' }] },
    },
  };
}

export function viewersBinding<Ref>(policyName: Ref) {
  return { name: policyName, role: 'roles/networkservices.viewer', members: ['user:alice@example.com', 'group:ops@example.com'] };
}

export function temporaryAdminsBinding<Ref>(policyName: Ref) {
  return {
    name: policyName,
    role: 'roles/networkservices.admin',
    members: ['serviceAccount:deployer@example-project.iam.gserviceaccount.com'],
    condition: {
      title: 'until 2030',
      description: 'Temporary access for the migration',
      expression: 'request.time < timestamp("2030-01-01T00:00:00Z")',
    },
  };
}

export const DEFAULT_SOURCE_DISPLAY_NAME = 'Manual uploads';

export function uploadsSource(project: string, displayName = DEFAULT_SOURCE_DISPLAY_NAME) {
  return { project, location: 'global', sourceId: 'uploads', displayName, type: 'SOURCE_TYPE_UPLOAD' as const };
}

export const DEFAULT_JOB_DISPLAY_NAME = 'November inventory';

export function inventoryJob<Ref>(project: string, sourceName: Ref, displayName = DEFAULT_JOB_DISPLAY_NAME) {
  return {
    project,
    location: 'global',
    importJobId: 'inventory-2026-11',
    displayName,
    assetSource: sourceName,
    inlinePayload: {
      format: 'IMPORT_JOB_FORMAT_MANUAL_CSV' as const,
      payload: [
        {
          name: 'vmInfo.csv',
          data: csv(
            'MachineId,MachineName,AllocatedProcessorCoreCount,MemoryGiB,TotalDiskAllocatedGiB,OsName,IsPhysical\n' +
              'vm-001,web-1,4,16,100,Debian 12,0\n' +
              'vm-002,db-1,8,64,500,Ubuntu 22.04,0\n',
          ),
        },
      ],
    },
  };
}
