/**
 * Migration Center on the wire, v1alpha1 and v1 (`/{version}/projects/{project}/locations/{location}/...`):
 * the service's entry. It sets up what every family shares (the operations of the service, the
 * storage settings), builds each family of the registry (families.ts) in order, once, and then, for
 * every API version (wire-version.ts), lets each family declare its routes on a fastify context of
 * that version whose edge translates requests in and answers out (version-translation.ts); and it
 * serves the service's operations in every version. Each family's folder documents
 * its own routes.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { FastifyInstance } from 'fastify';
import type { EmulatorContext } from '../context';
import { namedPlugin } from '../http/plugin-name';
import { registerOperationRoutes } from '../operations/routes';
import type { StorageSettings } from '../payloads';
import { makeTempFolder } from '../temp-folders';
import { COLLECTIONS, TYPES } from './names';
import { V1ALPHA1, WIRE_VERSIONS, type WireVersion } from './wire-version';
import { declareRequestBodies } from '../http/request-bodies';
import { requestBodyTable } from './request-bodies';
import { installVersionEdge, servedVersion, writeAnswer } from './version-translation';
import type { FamilyKey, FamilyScope } from './family';
import { FAMILIES, type MigrationCenterDomains } from './families';
import type { DataFileBytes } from './import-data-files/data-file-bytes';
import type { UploadUrls } from './import-data-files/upload-urls';

/** The Migration Center of one app: every family's domain (tests and the console reach them here). */
export interface MigrationCenter extends MigrationCenterDomains {
  /** Where data files' bytes are kept (tests look for leftovers there). */
  dataFileBytes: DataFileBytes;
  uploadUrls: UploadUrls;
  storage: () => StorageSettings;
}

const instances = new WeakMap<EmulatorContext, MigrationCenter>();

/** The Migration Center of an app's context (tests use it to reach the domain directly). */
export function migrationCenterOf(ctx: EmulatorContext): MigrationCenter | undefined {
  return instances.get(ctx);
}

export async function migrationCenterRoutes(app: FastifyInstance, ctx: EmulatorContext): Promise<void> {
  const ops = ctx.operations.forService({
    service: 'migrationcenter',
    // The version of the request that starts the operation (the one it was served in).
    apiVersion: () => (servedVersion() ?? V1ALPHA1).version,
    metadataType: TYPES.operationMetadata,
    // Recovery waits for the families' hooks (import jobs mark theirs failed first): recoverInterrupted below.
    failInterrupted: false,
    requestIdCollection: COLLECTIONS.requestIds,
  });

  let tempStorage: string | undefined;
  const storage = (): StorageSettings => {
    const config = ctx.config;
    let dir = config.storageDir;
    if (!dir) {
      if (config.dataDir) dir = path.join(config.dataDir, 'storage');
      else {
        tempStorage ??= makeTempFolder('storage');
        dir = tempStorage;
      }
    }
    return { storageDir: dir, ...(config.storageEndpoint ? { storageEndpoint: config.storageEndpoint } : {}) };
  };
  app.addHook('onClose', async () => {
    if (tempStorage) fs.rmSync(tempStorage, { recursive: true, force: true });
  });

  const built: Partial<MigrationCenterDomains> = {};
  let building: FamilyKey | undefined;
  const scopeIn = (versionApp: FastifyInstance, version: WireVersion): FamilyScope => ({
    app: versionApp,
    ctx,
    store: ctx.store,
    ops,
    storage,
    prefix: `${version.base}/projects/:project/locations/:location`,
    version,
    domain(key) {
      const domain = built[key];
      if (!domain) throw new Error(`family '${building}' needs '${key}', which FAMILIES (migrationcenter/families.ts) lists after it`);
      return domain;
    },
    later(key) {
      return () => {
        const domain = built[key];
        if (!domain) throw new Error(`family '${key}' was used before it was built`);
        return domain;
      };
    },
  });
  // Domains are built once, for every version: the service's app, in the stored version's terms.
  const buildScope = scopeIn(app, V1ALPHA1);
  for (const family of FAMILIES) {
    building = family.key;
    // The registry's type pairs each key with its family, so the cast only restates it.
    (built as Record<FamilyKey, unknown>)[family.key] = family.build(buildScope);
  }
  building = undefined;
  const domains = built as MigrationCenterDomains;
  instances.set(ctx, { ...domains, dataFileBytes: domains.importDataFiles.bytes, uploadUrls: domains.importDataFiles.urls, storage });

  const recovered = ops.recoverInterrupted();
  if (recovered > 0) ctx.log.warn({ importJobs: recovered }, 'import jobs interrupted by the previous stop were marked failed');

  for (const version of WIRE_VERSIONS) {
    // What each method reads its body into, in the version's shape: the front end refuses unknown names by it.
    declareRequestBodies(requestBodyTable(version));
    // A context of the version's own: its edge's hooks apply to its routes only.
    await app.register(
      namedPlugin(`migrationcenter ${version.base}`, async (versionApp) => {
        installVersionEdge(versionApp, version);
        const scope = scopeIn(versionApp, version);
        for (const family of FAMILIES) {
          if (version.lacksFamilies?.includes(family.key)) continue;
          (family.routes as (s: FamilyScope, d: unknown) => void)(scope, domains[family.key]);
        }
      }),
    );
    // Shared with Network Services on /v1 (mixins/shared-paths.ts); answered in the version's shape.
    registerOperationRoutes(app, ops, version.base, { present: (op) => writeAnswer(version, op) as object });
  }
}
