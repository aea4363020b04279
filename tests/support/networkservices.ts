/** Network Services builders for the inject() tests: names, endpoint policies, IAM calls, error checks. */
import type { FastifyInstance } from 'fastify';
import type { EmulatorAppOptions } from '../../backend-emulator/app';
import { inMemoryApp } from './app';
import { call, type Res } from './inject';
export { call, type Res } from './inject';

export const PARENT = 'projects/p1/locations/global';
export const EP_TYPE = 'type.googleapis.com/google.cloud.networkservices.v1.EndpointPolicy';

export function policyName(id: string, parent = PARENT): string {
  return `${parent}/endpointPolicies/${id}`;
}

export const MATCHER = {
  metadataLabelMatcher: {
    metadataLabelMatchCriteria: 'MATCH_ANY',
    metadataLabels: [{ labelName: 'app', labelValue: 'web' }],
  },
};

export function endpointPolicyBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { type: 'SIDECAR_PROXY', endpointMatcher: MATCHER, ...extra };
}

/**
 * An in-memory app with only the networkservices service: these tests cover the core and
 * Network Services, and must not depend on the state of other services' modules.
 */
export function newApp(options: EmulatorAppOptions = {}): FastifyInstance {
  return inMemoryApp({ builtinServices: ['networkservices'], ...options });
}

export async function createPolicy(
  app: FastifyInstance,
  id: string,
  body = endpointPolicyBody(),
  parent = PARENT,
  headers: Record<string, string> = {},
): Promise<Res> {
  return call(app, 'POST', `/v1/${parent}/endpointPolicies?endpointPolicyId=${id}`, body, headers);
}

export async function getIam(app: FastifyInstance, resource: string, version?: number, headers: Record<string, string> = {}): Promise<Res> {
  const q = version === undefined ? '' : `?options.requestedPolicyVersion=${version}`;
  return call(app, 'GET', `/v1/${resource}:getIamPolicy${q}`, undefined, headers);
}

export async function setIam(app: FastifyInstance, resource: string, body: unknown, headers: Record<string, string> = {}): Promise<Res> {
  return call(app, 'POST', `/v1/${resource}:setIamPolicy`, body, headers);
}

/** Asserts the Google error shape and returns the error object. */
export function expectGoogleError(res: Res, code: number, status: string): { code: number; message: string; status: string; details: any[] } {
  if (res.status !== code || res.body?.error?.status !== status) {
    throw new Error(`expected ${code} ${status}, got ${res.status}: ${res.raw}`);
  }
  const error = res.body.error;
  expect(Object.keys(res.body)).toEqual(['error']);
  // ProtoJSON: `details` is left out when there are none.
  expect(Object.keys(error).sort()).toEqual(error.details === undefined ? ['code', 'message', 'status'] : ['code', 'details', 'message', 'status']);
  expect(error.code).toBe(code);
  expect(typeof error.message).toBe('string');
  if (error.details !== undefined) expect(error.details.length).toBeGreaterThan(0);
  return { ...error, details: error.details ?? [] };
}

/** The field violations of an INVALID_ARGUMENT error. */
export function fieldViolations(res: Res): Array<{ field: string; description: string }> {
  const detail = (res.body?.error?.details ?? []).find((d: any) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest');
  return detail?.fieldViolations ?? [];
}
