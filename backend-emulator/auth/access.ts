/**
 * Who may call a route, declared by the route itself (fastify's route `config.access`), so that
 * the authorization decision is made on the route the router matched, never on the raw URL: a
 * path with a percent-encoded letter (`/emulator/v1/%72eset`) reaches the same route and so the
 * same decision. Two parsers of one URL cannot disagree when there is only one.
 *
 *   public  - no token needed: the health check and the console's static files (they hold no data)
 *   signed  - carries its own credential: a data file's signed upload URL checks its signature
 *   admin   - an admin token of the --auth file: the emulator's own routes (reset, seed, console JSON)
 *   caller  - a token of the --auth file whose principal holds the IAM permission of the Google
 *             method the request is (auth/request-permission.ts). The default: every Google API
 *             route, and any request no route matched (it needs a token, then answers 404 or 501).
 */
import type { FastifyRequest, RouteShorthandOptions } from 'fastify';

export type RouteAccess = 'public' | 'signed' | 'admin' | 'caller';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (auth/access.ts); absent: `caller`. */
    access?: RouteAccess;
    /**
     * On a path two services share (mixins/shared-paths.ts): the services that answer this
     * request, so that the permission checked is the answering service's (any one of them, for a
     * list several answer). Absent: the service of the path's method in the method table.
     */
    answeredBy?: (request: FastifyRequest) => readonly string[];
  }
}

/** The route options that declare a route's access: `app.get(url, withAccess('public'), handler)`. */
export function withAccess(access: RouteAccess, options: RouteShorthandOptions = {}): RouteShorthandOptions {
  return { ...options, config: { ...options.config, access } };
}
