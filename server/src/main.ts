import { createRequire } from 'node:module';
import path from 'node:path';
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

const role = process.argv.includes('--role=api') ? 'api' : 'embedded';
let server: Awaited<ReturnType<typeof startServer>>;
try {
  server = await startServer({ config, role, webDist });
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
