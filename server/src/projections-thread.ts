// The embedded process's projections, in a worker thread of their own (see ProjectionThread in
// projections/src/runtime/projection-thread.ts): the composition root of the thread.
import { parentPort } from 'node:worker_threads';
import { useFrenchZodErrors } from '@evo/domain';
import { DurableMark, KeyDestructions, openEventStore, openKeyStore, type Config } from '@evo/infra';
import { ProjectionService, allProjectors, openReadModelGenerations, projectionThreadSide } from '@evo/projections';

/** What the request thread hands this thread. */
export interface ProjectionThreadData {
  config: Config;
  /** the DurableMark's buffer, set by the request thread's log as it fsyncs */
  durableMark: SharedArrayBuffer;
  /** the KeyDestructions' buffer: the request thread's account erasures destroy keys this thread may hold */
  keyDestructions: SharedArrayBuffer;
}

const side = projectionThreadSide(parentPort!);
// started before the request thread has read its configuration (server/src/main.ts): it comes now
const { config, durableMark, keyDestructions } = await side.data<ProjectionThreadData>();
useFrenchZodErrors();
// connections of this thread's own: the members' keys, the log (following the request thread's
// durable mark) and the read models
// other processes' destroys come through the request thread's relay, which moves the shared count
const keys = await openKeyStore(config, new KeyDestructions(keyDestructions), { relay: false });
const events = await openEventStore(config, keys, { followDurable: new DurableMark(durableMark) });
const service = new ProjectionService({
  events,
  projectors: allProjectors,
  generations: await openReadModelGenerations(config),
  ...side.hooks,
});
side.serve(service, async () => {
  await service.read.close();
  await events.close();
  await keys.close();
});
