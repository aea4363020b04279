/**
 * The emulator's own routes (not Google's):
 *   GET  /healthz                               200 {"status":"ok"} (no auth needed)
 *   POST /emulator/v1/reset                     clears every document of every service -> {}
 *   POST /emulator/v1/seed                      loads a seed document (admin/seed.ts) -> {"loaded": {...}}
 *   GET  /emulator/v1/iamHistory?resource=NAME  every accepted write of that IAM policy, oldest first
 * With --auth, the /emulator/v1/* routes need an admin token: each declares `admin` access (the
 * app's hook decides on it) and this plugin checks the admin token once more itself, so that no
 * route of it is ever reachable by a user token, whatever the hook does.
 */
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../context';
import { withAccess } from '../auth/access';
import { invalidArgument } from '../errors';
import { objectBody, queryParam } from '../http/body';
import { networkServicesOf } from '../networkservices/routes';
import { loadSeed } from './seed';

export const ADMIN_PREFIX = '/emulator/v1';
/** Seed documents may be larger than API requests. */
export const SEED_BODY_LIMIT = 64 * 1024 * 1024;

export async function adminRoutes(app: FastifyInstance, ctx: EmulatorContext): Promise<void> {
  app.get('/healthz', withAccess('public'), async () => ({ status: 'ok' }));

  // Defence in depth: every other route of this plugin is admin-only here too.
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.access !== 'public') ctx.auth.requireAdmin(request.principal);
  });

  app.post(`${ADMIN_PREFIX}/reset`, withAccess('admin'), async () => {
    ctx.reset();
    return {};
  });

  app.post(`${ADMIN_PREFIX}/seed`, withAccess('admin', { bodyLimit: SEED_BODY_LIMIT }), async (request) => {
    const loaded = loadSeed(ctx.store, ctx.seeds, objectBody(request));
    return { loaded };
  });

  app.get(`${ADMIN_PREFIX}/iamHistory`, withAccess('admin'), async (request) => {
    const resource = queryParam(request, 'resource');
    if (!resource) throw invalidArgument([{ field: 'resource', description: 'is required: the resource name whose IAM policy history to list' }]);
    // Read through the domain; an app without Network Services has no IAM history.
    return { resource, entries: networkServicesOf(ctx)?.iamPolicies.history(resource) ?? [] };
  });
}
