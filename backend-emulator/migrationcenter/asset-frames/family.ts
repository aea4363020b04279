/**
 * Asset frames: what discovery clients and collectors report (asset-frames.ts), and the error
 * frames of a source (error-frames.ts).
 *
 *   POST {location}/assets:reportAssetFrames?source=  {framesData}  -> {} (ReportAssetFramesResponse)
 *   GET  {location}/sources/{source}/errorFrames?pageSize=&pageToken=&view=
 *   GET  {location}/sources/{source}/errorFrames/{id}?view=
 *
 * A deleted source takes its error frames along (Sources.onRemove).
 */
import type { FastifyRequest } from 'fastify';
import type { Family, LocationParams } from '../family';
import { idSegment, parentOf } from '../family';
import { objectBody, queryParam } from '../../http/body';
import { listRequest } from '../../http/list-request';
import { AssetFrames } from './asset-frames';
import { ErrorFrames } from './error-frames';
import { framesWithStoredMachines } from './frame-machine';

type SourceParams = LocationParams & { source: string };
type ErrorFrameParams = SourceParams & { frame: string };

export const assetFramesFamily: Family<'assetFrames'> = {
  key: 'assetFrames',
  build(scope) {
    const sources = scope.domain('sources');
    const errorFrames = new ErrorFrames(scope.store);
    sources.onRemove((name) => errorFrames.removeOf(name));
    return new AssetFrames(scope.store, scope.domain('assets'), sources, errorFrames);
  },
  routes({ app, prefix }, frames) {
    const sources = (request: FastifyRequest<{ Params: SourceParams }>, field: string): string =>
      `${parentOf(request, field)}/sources/${idSegment(request, request.params.source).id}`;
    app.post<{ Params: LocationParams }>(`${prefix}/assets::reportAssetFrames`, async (request) =>
      frames.report(parentOf(request), queryParam(request, 'source'), framesWithStoredMachines(objectBody(request))),
    );
    app.get<{ Params: SourceParams }>(`${prefix}/sources/:source/errorFrames`, async (request) => {
      const source = sources(request, 'parent');
      frames.sources.get(source);
      return frames.errorFrames.list(source, listRequest(request), queryParam(request, 'view'));
    });
    app.get<{ Params: ErrorFrameParams }>(`${prefix}/sources/:source/errorFrames/:frame`, async (request) => {
      const name = `${sources(request, 'name')}/errorFrames/${idSegment(request, request.params.frame).id}`;
      return frames.errorFrames.get(name, queryParam(request, 'view'));
    });
  },
};
