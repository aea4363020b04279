/**
 * Error frames (`{source}/errorFrames/{id}`, v1alpha1 `sources.errorFrames.get`/`list`): the
 * frames a source reported that broke a rule, each with its violations and, in the FULL view, the
 * frame as it was sent. They live as long as their source (a deleted source takes them along).
 *
 * Ids are made to sort in the order frames came in (ingestion time in base 36, the frame's place
 * in its call, then a random tail so that two calls in one millisecond never meet): a list,
 * by name, is the order of ingestion.
 */
import type { Store } from '../../store/store';
import { invalidArgument, notFound } from '../../errors';
import { listStorePage, type ListFields, type ListRequest } from '../../query/list-query';
import { randomBytesPooled } from '../../random';
import { COLLECTIONS, RESOURCE_TYPES } from '../names';

export interface FrameViolation {
  field: string;
  violation: string;
}

export interface ErrorFrameWire {
  name: string;
  ingestionTime: string;
  originalFrame?: Record<string, unknown>;
  violations: FrameViolation[];
}

export type ErrorFramesView = 'ERROR_FRAMES_VIEW_BASIC' | 'ERROR_FRAMES_VIEW_FULL';

/** `view` of ErrorFrames get and list: BASIC (the default) leaves out the original frame. */
export function checkErrorFramesView(value: string | undefined): ErrorFramesView {
  if (value === undefined || value === '' || value === 'ERROR_FRAMES_VIEW_UNSPECIFIED' || value === 'ERROR_FRAMES_VIEW_BASIC') return 'ERROR_FRAMES_VIEW_BASIC';
  if (value === 'ERROR_FRAMES_VIEW_FULL') return 'ERROR_FRAMES_VIEW_FULL';
  throw invalidArgument([{ field: 'view', description: 'must be ERROR_FRAMES_VIEW_BASIC or ERROR_FRAMES_VIEW_FULL' }]);
}

function inView(frame: ErrorFrameWire, view: ErrorFramesView): ErrorFrameWire {
  if (view === 'ERROR_FRAMES_VIEW_FULL') return frame;
  const { originalFrame: _omit, ...basic } = frame;
  return basic;
}

const LIST_FIELDS: ListFields<ErrorFrameWire> = {
  scalars: { name: (f) => f.name, ingestionTime: (f) => f.ingestionTime },
  name: (f) => f.name,
};

export class ErrorFrames {
  constructor(private readonly store: Store) {}

  /** Records the error frames of one call (inside its transaction); `index` orders them within it. */
  add(source: string, time: number, frames: Array<{ frame: Record<string, unknown>; violations: FrameViolation[] }>): ErrorFrameWire[] {
    const stamp = time.toString(36).padStart(9, '0');
    return frames.map(({ frame, violations }, index) => {
      const id = `ef-${stamp}-${index.toString(36).padStart(4, '0')}-${randomBytesPooled(4).toString('hex')}`;
      const wire: ErrorFrameWire = { name: `${source}/errorFrames/${id}`, ingestionTime: new Date(time).toISOString(), originalFrame: frame, violations };
      this.store.put(COLLECTIONS.errorFrames, wire.name, wire);
      return wire;
    });
  }

  get(name: string, view: string | undefined): ErrorFrameWire {
    const checked = checkErrorFramesView(view);
    const frame = this.store.get<ErrorFrameWire>(COLLECTIONS.errorFrames, name);
    if (!frame) throw notFound(RESOURCE_TYPES.errorFrame, name);
    return inView(frame, checked);
  }

  /** ListErrorFrames of a source, by name (the order of ingestion). */
  list(source: string, request: ListRequest, view: string | undefined): { errorFrames?: ErrorFrameWire[]; nextPageToken?: string } {
    const checked = checkErrorFramesView(view);
    const page = listStorePage(this.store, COLLECTIONS.errorFrames, `${source}/errorFrames/`, request, LIST_FIELDS, `errorFrames:${source}`);
    return {
      ...(page.items.length > 0 ? { errorFrames: page.items.map((f) => inView(f, checked)) } : {}),
      ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
    };
  }

  /** Deletes every error frame of a source (inside the source's delete). */
  removeOf(source: string): number {
    const keys = this.store.list(COLLECTIONS.errorFrames, { prefix: `${source}/errorFrames/` }).map((e) => e.key);
    for (const key of keys) this.store.delete(COLLECTIONS.errorFrames, key);
    return keys.length;
  }
}
