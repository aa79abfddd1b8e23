import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, childLogger, loadConfig, type Config } from '@evo/infra';
import { startServer } from './server';

const log = childLogger('main');
const webDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

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
const server = await startServer({ config, role, webDist });
log.info({ url: server.url, role, embedded: config.embedded, dataDir: config.DATA_DIR }, `EVO écoute sur ${server.url}`);

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
