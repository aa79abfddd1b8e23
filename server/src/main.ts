// `npm start` (the server bundle's entry). The embedded projections' thread is started first, and
// loads its code while this thread loads the rest of the server's (run-server.ts, imported after
// it): each takes a few hundred milliseconds, about half of a restart otherwise.
import { startThreadWorker } from '@evo/projections/thread-worker';
import { projectionThreadModule } from './projection-thread-module';

const role = process.argv.includes('--role=api') ? 'api' : 'embedded';
// the settings read as the configuration reads them (config.ts); startServer makes the final
// choice, and ends this thread if it goes without
const projectionWorker =
  role === 'embedded' && process.env.PROJECTIONS_THREAD !== 'false' && !process.env.MONGO_URL
    ? startThreadWorker(projectionThreadModule())
    : undefined;

const { runServer } = await import('./run-server');
await runServer(role, projectionWorker);
