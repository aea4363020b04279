/** Validating 10,000 typical inputs (half bindings, half import jobs) through the shared schemas. */
import { validate, validateImportJobArgs } from '../schemas';

export function runValidationBench(count = 10_000): { count: number; seconds: number; perSecond: number } {
  const data = Buffer.from('MachineId,MachineName\nm1,vm-1\n').toString('base64');
  const inputs = Array.from({ length: count }, (_, i) =>
    i % 2 === 0
      ? {
          kind: 'binding' as const,
          value: {
            name: `projects/proj-${i}/locations/global/endpointPolicies/ep-${i}`,
            role: 'roles/networkservices.viewer',
            members: [`user:user${i}@example.com`, `serviceAccount:sa${i}@proj.iam.gserviceaccount.com`, 'group:ops@example.com'],
            condition: i % 4 === 0 ? { title: 'until 2030', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")' } : undefined,
          },
        }
      : {
          kind: 'job' as const,
          value: {
            importJobId: `job-${i}`,
            displayName: `Import ${i}`,
            labels: { env: 'prod', team: `t${i % 10}` },
            requestId: '3f2b8c1e-9d4a-4e7b-a1c2-5d6e7f8a9b0c',
            inlinePayload: { format: 'IMPORT_JOB_FORMAT_MANUAL_CSV', payload: [{ name: 'vmInfo.csv', data }] },
          },
        },
  );
  validate('Role', 'roles/viewer'); // compile outside the timed loop
  const start = process.hrtime.bigint();
  let failures = 0;
  for (const input of inputs) {
    const value = JSON.parse(JSON.stringify(input.value)) as Record<string, unknown>;
    failures += input.kind === 'binding' ? validate('EndpointPolicyIamBindingArgs', value).length : validateImportJobArgs(value).length;
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (failures !== 0) throw new Error(`benchmark inputs should be valid, got ${failures} failures`);
  return { count, seconds, perSecond: Math.round(count / seconds) };
}

if (require.main === module) {
  const r = runValidationBench();
  console.log(`schema validation: ${r.count} inputs in ${r.seconds.toFixed(3)} s (${r.perSecond}/s)`);
}
