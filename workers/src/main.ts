// The workers service of the distributed stack: runs BullMQ jobs (video processing).
import path from 'node:path';
import { ConfigError, childLogger, createEventStore, createJobQueue, loadConfig } from '@evo/infra';
import { startHealthServer } from '@evo/projections';
import { jobHandlers } from './handlers';

const log = childLogger('workers');
try {
  const config = loadConfig();
  const events = createEventStore(config);
  const jobs = createJobQueue(config);
  await jobs.process(jobHandlers({ events, uploadsRoot: path.resolve(config.uploadsDir) }), { concurrency: 2 });
  const health = await startHealthServer(Number(process.env.HEALTH_PORT ?? 3002), async () => true);
  log.info('workers ready');
  const stop = async () => {
    await jobs.close();
    await events.close();
    health.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
} catch (e) {
  console.error(e instanceof ConfigError ? e.message : e);
  process.exit(1);
}
