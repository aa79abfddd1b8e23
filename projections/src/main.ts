// The projections service of the distributed stack: follows the log into MongoDB, pushes through Redis.
import {
  ConfigError,
  RedisEmitterPushBus,
  ServiceUnreachableError,
  checkDistributedServices,
  childLogger,
  openEventStore,
  openKeyStore,
  createReadStore,
  loadConfig,
  pushChannelKey,
  startHealthServer,
} from '@evo/infra';
import { allProjectors } from './registry';
import { ProjectionRunner, readiness } from './runtime/runner';

const log = childLogger('projections');
try {
  const config = loadConfig();
  // MONGO_URL and REDIS_URL set and answering before anything starts (no half-started service)
  await checkDistributedServices(config, 'projections');
  const keys = await openKeyStore(config);
  const events = await openEventStore(config, keys);
  const read = createReadStore(config);
  const push = RedisEmitterPushBus.connect(config.REDIS_URL!, { key: pushChannelKey(config) });
  const runner = new ProjectionRunner({
    events,
    read,
    projectors: allProjectors,
    push,
    onError: (err) => log.error({ err }, 'projection error, retrying'),
  });
  const health = await startHealthServer(Number(process.env.HEALTH_PORT ?? 3001), async () =>
    readiness(await runner.health()),
  );
  await runner.start();
  log.info({ position: runner.currentPosition?.toString() }, 'projections caught up, following the log');
  const stop = async () => {
    await runner.stop();
    await push.close();
    await read.close();
    await events.close();
    await keys.close();
    health.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
} catch (e) {
  console.error(e instanceof ConfigError || e instanceof ServiceUnreachableError ? e.message : e);
  process.exit(1);
}
