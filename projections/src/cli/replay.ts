// npm run replay [-- --batch=N]: rebuild every read model from the log, showing the progress (a bar
// on a terminal, a line per tenth otherwise: CI logs, `docker compose run`, a pipe).
// --batch: events per read-store transaction (default 1000); progress is reported after each.
// Embedded (no MONGO_URL): into a new file beside the current read models, made current at the end
// (a running server switches to it; a crash leaves the old one current). With MONGO_URL likewise, into
// a new database (see MongoReadModelGenerations).
// npm run replay -- --resume NAME: a projection stopped on an event, brought up to date (with the
// service that writes the read models stopped; the embedded server resumes from its back-office).
import cliProgress from 'cli-progress';
import { ConfigError, type MongoReadStore, loadConfig, openEventStore, openKeyStore } from '@evo/infra';
import { allProjectors } from '../registry';
import { rebuildReadModels, type RebuildProgress } from '../runtime/rebuild';
import { ProjectionRunner } from '../runtime/runner';
import { projectorFingerprint } from '../runtime/fingerprint';
import { MongoReadModelGenerations } from '../runtime/mongo-generations';
import { openReadModelGenerations, openReadStore, type SqliteReadModelFiles } from '../runtime/read-model-files';

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

/** --resume NAME from the command line, or undefined */
function resumeArgument(args: string[]): string | undefined {
  const i = args.findIndex((a) => a === '--resume' || a.startsWith('--resume='));
  if (i < 0) return undefined;
  const name = args[i].startsWith('--resume=') ? args[i].slice('--resume='.length) : args[i + 1];
  if (!name || !allProjectors.some((p) => p.name === name))
    throw new ConfigError(
      '--resume',
      `attend le nom d'une projection (${allProjectors.map((p) => p.name).join(', ')})`,
    );
  return name;
}

try {
  const args = process.argv.slice(2);
  const batchSize = batchSizeArgument(args);
  const resume = resumeArgument(args);
  const config = loadConfig();
  const keys = await openKeyStore(config);
  const events = await openEventStore(config, keys);
  if (resume) {
    const read = await openReadStore(config);
    const runner = new ProjectionRunner({
      events,
      read,
      projectors: allProjectors,
      fingerprint: projectorFingerprint(allProjectors),
    });
    await runner.start();
    try {
      await runner.resume(resume);
      console.log(`Projection « ${resume} » reprise.`);
    } finally {
      await runner.stop();
      await read.close();
      await events.close();
      await keys.close();
    }
    process.exit(0);
  }
  // the pointer read first: an unreachable MONGO_URL fails here, before anything is written
  const generations = await openReadModelGenerations(config).catch((err: unknown) => {
    throw new ConfigError('MONGO_URL', `injoignable (${err instanceof Error ? err.message : String(err)})`);
  });
  const fresh = await generations.fresh();
  const read = fresh.store;
  if (generations instanceof MongoReadModelGenerations) {
    const mongo = read as MongoReadStore;
    await mongo.connect();
    console.log(
      `Read models : nouvelle base « ${mongo.databaseName} » sur ${mongo.isFerretDb ? 'FerretDB' : 'MongoDB'}` +
        (mongo.supportsTransactions ? ' (un lot par transaction)' : ' (sans transactions : projecteurs idempotents)') +
        `, « ${generations.currentDatabase} » reste en service jusqu'à la fin.`,
    );
  } else {
    console.log(
      `Read models : nouveau fichier SQLite ${(generations as SqliteReadModelFiles).currentFile()} → ${(read as { file?: string }).file ?? ''}, les actuels restent en service jusqu'à la fin.`,
    );
  }
  const display = process.stdout.isTTY ? progressBar() : { update: progressLines(console.log), stop: () => undefined };
  let result;
  try {
    result = await rebuildReadModels({
      events,
      read,
      projectors: allProjectors,
      batchSize,
      onProgress: display.update,
    });
  } catch (err) {
    // the current read models stay; the half-built file (or database) goes
    await fresh.discard();
    throw err;
  }
  display.stop();
  // the new set is the current one from now on: a running server switches to it (on MongoDB, the
  // projections service catches it up and switches, then the API processes follow)
  await fresh.promote();
  console.log(
    `Terminé : ${result.events} événements en ${result.seconds.toFixed(1)} s (${Math.round(result.events / Math.max(result.seconds, 1e-6))} évt/s).`,
  );
  await read.close();
  await generations.close?.();
  await events.close();
  await keys.close();
} catch (e) {
  console.error(e instanceof ConfigError ? e.message : e);
  process.exit(1);
}
