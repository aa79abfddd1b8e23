import type { ReadStore } from '@evo/infra';
import type { RecordedAppEvent } from '@evo/domain';
import type { Projector } from '../runtime/projector';

/**
 * A projector of its own collection that cannot apply a comment containing `trigger` while
 * `broken()` says so: the runner stops it on that event (the others go on), and it can be
 * resumed once `broken()` says no more. For tests of stopped projections.
 */
export function fragileCommentsProjector(trigger: string, broken: () => boolean): Projector {
  return {
    name: 'fragile',
    collections: ['fragile'],
    eventTypes: ['CommentPosted'],
    async project(event: RecordedAppEvent, store: ReadStore) {
      if (event.type !== 'CommentPosted') return;
      if (broken() && event.data.content.includes(trigger))
        throw new Error(`commentaire illisible pour ce projecteur (${trigger})`);
      await store.collection('fragile').updateOne({ _id: 'comments' }, { $inc: { n: 1 } }, { upsert: true });
    },
  };
}
