// The workers service of the distributed stack: runs BullMQ jobs (video processing) and, once per
// topology, the gift-credit process manager, the re-queueing of unprocessed uploads and the sweep
// of orphan video files (the API replicas do none of these).
import {
  ConfigError,
  ServiceUnreachableError,
  checkDistributedServices,
  childLogger,
  createJobQueue,
  loadConfig,
  openEventStore,
  openKeyStore,
  openFileStore,
  startHealthServer,
} from '@evo/infra';
import { ReadStoreProgress, openReadStore } from '@evo/projections';
import { startWorkersService } from './service';
import { announceMediaTools } from './videos/media-tools';

const log = childLogger('workers');
try {
  const config = loadConfig();
  // REDIS_URL set and answering before anything starts (no half-started service)
  await checkDistributedServices(config, 'workers');
  const keys = await openKeyStore(config);
  const events = await openEventStore(config, keys);
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
  const health = await startHealthServer(Number(process.env.HEALTH_PORT ?? 3002), async () => true, {
    ffmpeg: source,
  });
  log.info('workers ready (jobs, gift credits)');
  const stop = async () => {
    await workers.stop();
    await read?.close();
    await events.close();
    await keys.close();
    await files.close();
    health.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
} catch (e) {
  console.error(e instanceof ConfigError || e instanceof ServiceUnreachableError ? e.message : e);
  process.exit(1);
}
