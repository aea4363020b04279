/**
 * The headers every answer of the emulator carries, whoever answers: a route, an error, the Host/
 * Origin guard, the 404 of an unknown path, the error of a URL the router could not read.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { REQUEST_ID_HEADER } from '../logging';

/**
 * Set when the request arrives (app.ts's onRequest hook; the framework error handler for requests
 * that never reach it), not by an onSend hook: fastify keeps headers set before an error (it drops
 * only content-type and content-length), and a hook on every answer costs a runner per request.
 */
export function setAnswerHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.header(REQUEST_ID_HEADER, request.id);
  // No answer is ever to be sniffed into something else (JSON read as a script or a page).
  reply.header('x-content-type-options', 'nosniff');
}
