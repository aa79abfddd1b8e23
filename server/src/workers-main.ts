// The workers service of the distributed stack: runs BullMQ jobs (video processing, erasures, data
// exports) and, once per topology, the gift-credit process manager, the re-queueing of unprocessed
// uploads and the sweep of orphan video files (the API replicas do none of these).
import { childLogger, createJobQueue, openFileStore } from '@evo/infra';
import { ReadStoreProgress, openReadStore } from '@evo/projections';
import { announceMediaTools, startWorkersService } from '@evo/workers';
import { runService } from './service';

const log = childLogger('workers');
await runService('workers', 3002, async ({ config, keys, events }) => {
  const files = await openFileStore(config);
  await files.ready();
  const jobs = createJobQueue(config);
  // the read models the projections service writes (MONGO_URL): an account's erasure destroys the
  // member's key only once they have forgotten the member (no readable copy outlives the key)
  const read = config.MONGO_URL ? await openReadStore(config) : undefined;
  const workers = await startWorkersService({
    events,
    jobs,
    files,
    orphanGraceMs: config.ORPHAN_FILES_GRACE_MINUTES * 60_000,
    keys,
    progress: read && new ReadStoreProgress(read, events, 200),
  });
  const { source } = await announceMediaTools(log);
  return {
    ready: async () => true,
    about: { ffmpeg: source },
    readyMessage: 'workers ready (jobs, gift credits)',
    async stop() {
      await workers.stop();
      await read?.close();
      await files.close();
    },
  };
});
