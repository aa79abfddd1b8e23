/**
 * Crypto-shredding of a log written before it (issue 31): every personal field of every stored
 * event encrypted in place with its member's key (the keys written first), the uniqueness streams
 * renamed to their keyed hash, a check of the whole log, then VACUUM so that the clear rows'
 * old pages are gone. Progress lines on the logger; restartable (a second run skips what is
 * done, and finishes a run stopped by kill -9). Exit code 0 once verified, 1 when the check
 * finds a problem, 2 on a configuration error or an EventStoreDB log.
 *
 *   npm run data:encrypt                      (DATA_DIR=./data by default: events.sqlite, keys.sqlite)
 *   EVENTSTORE_URL=postgres://… npm run data:encrypt
 *   npm run data:encrypt -- --batch=200       (events per transaction, 1000 by default)
 *
 * Stop EVO first: the migration rewrites the log's rows under the running processes otherwise.
 */
import { existsSync } from 'node:fs';
import {
  ConfigError,
  PostgresRawLog,
  ServiceUnreachableError,
  SqliteRawLog,
  childLogger,
  encryptLog,
  isPostgresUrl,
  loadConfig,
  openKeyStore,
  type RawLog,
} from '@evo/infra';

const log = childLogger('data-encrypt');
const batchArgument = process.argv.find((a) => a.startsWith('--batch='));
const batchSize = batchArgument ? Number(batchArgument.slice('--batch='.length)) : 1000;
if (!Number.isInteger(batchSize) || batchSize < 1) {
  log.error(`--batch attend un nombre entier positif d'événements (reçu : ${batchArgument}).`);
  process.exit(2);
}

/** Why an EventStoreDB log is not migrated in place, and what to do instead (docs/personal-data.md). */
const EVENTSTOREDB_REFUSAL =
  "Migration impossible sur EventStoreDB : ses événements sont immuables, ils ne peuvent pas être réécrits chiffrés. Procédure : démarrez un nouveau serveur EventStoreDB, recopiez-y le journal en relisant l'ancien et en réécrivant chaque événement par EVO (PersonalDataEventStore, qui chiffre les champs personnels et renomme les flux d'unicité), basculez EVENTSTORE_URL sur le nouveau, puis supprimez l'ancienne base (ou lancez un scavenge après avoir supprimé ses flux) : voir docs/personal-data.md.";

let config;
try {
  config = loadConfig();
} catch (e) {
  log.error(e instanceof ConfigError ? e.message : String(e));
  process.exit(2);
}
if (config.EVENTSTORE_URL && !isPostgresUrl(config.EVENTSTORE_URL)) {
  log.error(EVENTSTOREDB_REFUSAL);
  process.exit(2);
}
if (!config.EVENTSTORE_URL && !existsSync(config.eventsFile)) {
  log.error(`Aucun journal d'événements dans ${config.eventsFile} (DATA_DIR=${config.DATA_DIR}).`);
  process.exit(2);
}

let keys;
try {
  keys = await openKeyStore(config);
} catch (e) {
  log.error(e instanceof ConfigError || e instanceof ServiceUnreachableError ? e.message : String(e));
  process.exit(2);
}
const raw: RawLog = config.EVENTSTORE_URL
  ? new PostgresRawLog(config.EVENTSTORE_URL)
  : new SqliteRawLog(config.eventsFile);
const started = performance.now();
let lastLine = 0;
try {
  const report = await encryptLog({
    log: raw,
    keys,
    batchSize,
    onProgress: (p) => {
      // a line per second at most, and the end of each phase
      if (p.done < p.total && performance.now() - lastLine < 1000) return;
      lastLine = performance.now();
      log.info(p, `${p.phase} : ${p.done} / ${p.total}`);
    },
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (report.problems.length > 0) {
    log.error({ ...report }, `Vérification en échec : ${report.problems.join(' ; ')}`);
    process.exitCode = 1;
  } else {
    log.info(
      { ...report, seconds },
      `Journal chiffré et vérifié : ${report.events} événements lus, ${report.encrypted} chiffrés, ${report.erased} effacés (clé détruite), ${report.renamed} flux renommés, en ${seconds} s.`,
    );
  }
} finally {
  await raw.close();
  await keys.close();
}
