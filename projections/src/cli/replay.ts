// npm run replay [-- --batch=N]: drop every read model and rebuild it from the log, showing the
// progress (a bar on a terminal, a line per tenth otherwise: CI logs, `docker compose run`, a pipe).
// --batch: events per read-store transaction (default 1000); progress is reported after each.
import cliProgress from 'cli-progress';
import { ConfigError, MongoReadStore, openEventStore, createReadStore, loadConfig } from '@evo/infra';
import { allProjectors } from '../registry';
import { rebuildReadModels, type RebuildProgress } from '../runtime/rebuild';

/** Progress as plain lines, at most one per tenth of the log (and the last one). */
function progressLines(write: (line: string) => void): (p: RebuildProgress) => void {
  let lastTenth = -1;
  return (p) => {
    const tenth = Math.floor(p.fraction * 10);
    if (tenth === lastTenth) return;
    lastTenth = tenth;
    write(
      `Relecture : ${Math.round(p.fraction * 100)} % | ${p.done} événements | ${Math.round(p.rate)} évt/s | reste ${Math.ceil(p.etaSeconds)} s`,
    );
  };
}

function progressBar(): { update: (p: RebuildProgress) => void; stop: () => void } {
  const bar = new cliProgress.SingleBar(
    {
      format: 'Relecture [{bar}] {percentage}% | {done} événements | {rate} évt/s | reste {eta_s} s',
      hideCursor: true,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(1000, 0, { done: 0, rate: 0, eta_s: '?' });
  return {
    update: (p) =>
      bar.update(Math.round(p.fraction * 1000), {
        done: p.done,
        rate: Math.round(p.rate),
        eta_s: Math.ceil(p.etaSeconds),
      }),
    stop: () => bar.stop(),
  };
}

/** --batch=N from the command line, or undefined */
function batchSizeArgument(args: string[]): number | undefined {
  const arg = args.find((a) => a.startsWith('--batch='));
  if (arg === undefined) return undefined;
  const n = Number(arg.slice('--batch='.length));
  if (!Number.isInteger(n) || n < 1) throw new ConfigError('--batch', 'doit être un entier positif');
  return n;
}

try {
  const batchSize = batchSizeArgument(process.argv.slice(2));
  const config = loadConfig();
  const events = await openEventStore(config);
  const read = createReadStore(config);
  if (read instanceof MongoReadStore) {
    // connect first: an unreachable MONGO_URL fails here, before anything is dropped
    await read.connect().catch((err: unknown) => {
      throw new ConfigError('MONGO_URL', `injoignable (${err instanceof Error ? err.message : String(err)})`);
    });
    console.log(
      `Read models : base « ${read.databaseName} » sur ${read.isFerretDb ? 'FerretDB' : 'MongoDB'}` +
        (read.supportsTransactions ? ' (un lot par transaction)' : ' (sans transactions : projecteurs idempotents)'),
    );
  } else {
    console.log(
      'Read models en mémoire (pas de MONGO_URL) : reconstruction de contrôle, le serveur embarqué reconstruit les siens à chaque démarrage.',
    );
  }
  const display = process.stdout.isTTY ? progressBar() : { update: progressLines(console.log), stop: () => undefined };
  const result = await rebuildReadModels({
    events,
    read,
    projectors: allProjectors,
    batchSize,
    onProgress: display.update,
  });
  display.stop();
  console.log(
    `Terminé : ${result.events} événements en ${result.seconds.toFixed(1)} s (${Math.round(result.events / Math.max(result.seconds, 1e-6))} évt/s).`,
  );
  await read.close();
  await events.close();
} catch (e) {
  console.error(e instanceof ConfigError ? e.message : e);
  process.exit(1);
}
