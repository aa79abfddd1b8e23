// The projections service of the distributed stack: follows the log into MongoDB, pushes through Redis.
import {
  ConfigError,
  RedisEmitterPushBus,
  ServiceUnreachableError,
  checkDistributedServices,
  childLogger,
  openEventStore,
  openKeyStore,
  loadConfig,
  pushChannelKey,
  startHealthServer,
} from '@evo/infra';
import { allProjectors } from './registry';
import { readiness } from './runtime/runner';
import { ProjectionService } from './runtime/projection-service';
import { MongoReadModelGenerations } from './runtime/mongo-generations';
import { openReadModelGenerations } from './runtime/read-model-files';

const log = childLogger('projections');
try {
  const config = loadConfig();
  // MONGO_URL and REDIS_URL set and answering before anything starts (no half-started service)
  await checkDistributedServices(config, 'projections');
  const keys = await openKeyStore(config);
  const events = await openEventStore(config, keys);
  const push = RedisEmitterPushBus.connect(config.REDIS_URL!, { key: pushChannelKey(config) });
  // the read models' database, and the ones `npm run replay` builds beside it (switched to once caught up)
  const generations = await openReadModelGenerations(config);
  // databases of an interrupted rebuild, or left by a switch a stop cut short (this is the one writer)
  if (generations instanceof MongoReadModelGenerations) await generations.sweep();
  const runner = new ProjectionService({
    events,
    projectors: allProjectors,
    generations,
    push,
    onError: (err) => log.error({ err }, 'projection error, retrying'),
  });
  const health = await startHealthServer(Number(process.env.HEALTH_PORT ?? 3001), async () =>
    readiness(await runner.health()),
  );
  await runner.start();
  runner.followReplays();
  log.info({ position: runner.currentPosition?.toString() }, 'projections caught up, following the log');
  const stop = async () => {
    await runner.stop();
    await push.close();
    await runner.read.close();
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
