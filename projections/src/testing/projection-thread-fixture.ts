// A projections' thread for projection-thread.test.ts: the runtime's ProjectionService over a
// plain SQLite log, with a projector that fails while the test says so (fragileCommentsProjector)
// and one that pushes each comment, or takes the whole thread down on a comment saying 'crash' (and
// on one saying 'crash once', the first time a thread of this test projects it).
import { parentPort } from 'node:worker_threads';
import type { PushEvents } from '@evo/contracts';
import { DurableMark, SqliteEventStore } from '@evo/infra';
import type { Projector } from '../runtime/projector';
import { ProjectionService } from '../runtime/projection-service';
import { SqliteReadModelFiles } from '../runtime/read-model-files';
import { projectionThreadSide } from '../runtime/projection-thread';
import { fragileCommentsProjector } from './fragile-projector';

export interface FixtureData {
  eventsFile: string;
  dataDir: string;
  durableMark: SharedArrayBuffer;
  /** [0] = 1: the fragile projector fails on comments holding 'boum'; [1]: threads taken down by 'crash once' */
  broken: SharedArrayBuffer;
}

const side = projectionThreadSide(parentPort!);
const { eventsFile, dataDir, durableMark, broken } = await side.data<FixtureData>();
const flag = new Int32Array(broken);
const crashNow = (content: string) =>
  content === 'crash' || (content === 'crash once' && Atomics.compareExchange(flag, 1, 0, 1) === 0);

const commentPushes: Projector = {
  name: 'comment-pushes',
  collections: [],
  eventTypes: ['CommentPosted'],
  async project(event, _store, ctx) {
    if (event.type !== 'CommentPosted') return;
    if (crashNow(event.data.content))
      setImmediate(() => {
        throw new Error('fil planté par le test');
      });
    // a payload of the test's own: the relay does not look inside
    const payload = { content: event.data.content, position: String(event.position) };
    ctx.push('video:1', 'comment:new', payload as unknown as PushEvents['comment:new']);
  },
};

const events = new SqliteEventStore(eventsFile, { followDurable: new DurableMark(durableMark), pollIntervalMs: 50 });
const service = new ProjectionService({
  events,
  projectors: [fragileCommentsProjector('boum', () => Atomics.load(flag, 0) === 1), commentPushes],
  generations: new SqliteReadModelFiles(dataDir),
  ...side.hooks,
});
side.serve(service, async () => {
  await service.read.close();
  await events.close();
});
