// The workers service of the distributed stack: runs BullMQ jobs (video processing) and, once per
// topology, the gift-credit process manager and the re-queueing of unprocessed uploads (the API
// replicas do neither).
import path from 'node:path';
import {
  ConfigError,
  ServiceUnreachableError,
  checkDistributedServices,
  childLogger,
  openEventStore,
  createJobQueue,
  loadConfig,
  startHealthServer,
} from '@evo/infra';
import { WalletRepository } from '@evo/commands';
import { jobHandlers } from './handlers';
import { GiftCreditProcess } from './ledger/gift-credits';
import { requeueUnprocessedVideos } from './videos/requeue';

const log = childLogger('workers');
try {
  const config = loadConfig();
  // REDIS_URL set and answering before anything starts (no half-started service)
  await checkDistributedServices(config, 'workers');
  const events = await openEventStore(config);
  const jobs = createJobQueue(config);
  await jobs.process(jobHandlers({ events, uploadsRoot: path.resolve(config.uploadsDir) }), { concurrency: 2 });
  // uploads recorded whose job was never queued (an API replica died in between) get it now
  const requeued = await requeueUnprocessedVideos(events, jobs);
  if (requeued > 0) log.info({ videos: requeued }, 'video jobs queued again');
  // gifts sent are credited to their receiver: re-scans the log, then follows it
  const giftCredits = new GiftCreditProcess(events, {
    wallets: new WalletRepository(events),
    onError: (err) => log.error({ err }, 'gift credit error, retrying'),
  });
  await giftCredits.start();
  const health = await startHealthServer(Number(process.env.HEALTH_PORT ?? 3002), async () => true);
  log.info('workers ready (jobs, gift credits)');
  const stop = async () => {
    await giftCredits.stop();
    await jobs.close();
    await events.close();
    health.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
} catch (e) {
  console.error(e instanceof ConfigError || e instanceof ServiceUnreachableError ? e.message : e);
  process.exit(1);
}
