// The process `npm start` runs, loaded by main.ts: the configuration read, the server started
// (embedded, or an API replica), stopped cleanly on SIGINT and SIGTERM.
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import {
  ConfigError,
  DataFileError,
  ServiceUnreachableError,
  childLogger,
  isLoopbackHost,
  loadConfig,
  type Config,
} from '@evo/infra';
import { startServer } from './embedded';

const log = childLogger('main');
// found through the package, not this file's location: the same from the sources and from the server bundle
const webDist = path.resolve(
  path.dirname(createRequire(import.meta.url).resolve('@evo/command-api')),
  '../../web/dist',
);

/**
 * `role`: embedded (the default) or api (--role=api); `projectionWorker`: the embedded projections'
 * thread, started by main.ts while this code was loading (undefined: none, or one to start here).
 */
export async function runServer(role: 'embedded' | 'api', projectionWorker: Worker | undefined): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }

  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({ config, role, webDist, projectionWorker });
  } catch (e) {
    // a damaged or lost event log, a missing variable, a server that does not answer: the
    // operator's message alone, no stack, and nothing left running
    if (e instanceof DataFileError || e instanceof ConfigError || e instanceof ServiceUnreachableError) {
      console.error(e.message);
      process.exit(1);
    }
    throw e;
  }
  log.info(
    { url: server.listening, role, embedded: config.embedded, dataDir: config.DATA_DIR },
    `EVO écoute sur ${server.listening}${isLoopbackHost(config.HOST) ? ' (cette machine seulement)' : ` (réseau : ${config.HOST})`}`,
  );

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log.info({ signal }, 'arrêt');
      server
        .close()
        .then(() => process.exit(0))
        .catch((err) => {
          log.error({ err }, 'arrêt incomplet');
          process.exit(1);
        });
    });
  }
}
