// The projections service of the distributed stack: follows the log into MongoDB, pushes through Redis.
import { RedisEmitterPushBus, pushChannelKey } from '@evo/infra';
import {
  MongoReadModelGenerations,
  ProjectionService,
  allProjectors,
  openReadModelGenerations,
  readiness,
} from '@evo/projections';
import { runService } from './service';

await runService('projections', 3001, async ({ config, events }) => {
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
  });
  return {
    async start() {
      await runner.start();
      runner.followReplays();
    },
    ready: async () => readiness(await runner.health()),
    readyMessage: 'projections caught up, following the log',
    readyDetails: () => ({ position: runner.currentPosition?.toString() }),
    async stop() {
      await runner.stop();
      await push.close();
      await runner.read.close();
    },
  };
});
