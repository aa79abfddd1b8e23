// npm run replay: drop every read model and rebuild it from the log, with a progress bar.
import cliProgress from 'cli-progress';
import { ConfigError, createEventStore, createReadStore, loadConfig } from '@evo/infra';
import { allProjectors } from '../registry';
import { rebuildReadModels } from '../runtime/rebuild';

try {
  const config = loadConfig();
  const events = createEventStore(config);
  const read = createReadStore(config);
  if (!config.MONGO_URL) {
    console.log('Read models en mémoire (pas de MONGO_URL) : reconstruction de contrôle, le serveur embarqué reconstruit les siens à chaque démarrage.');
  }
  const bar = new cliProgress.SingleBar(
    { format: 'Relecture [{bar}] {percentage}% | {done} événements | {rate} évt/s | reste {eta_s} s', hideCursor: true },
    cliProgress.Presets.shades_classic,
  );
  bar.start(1000, 0, { done: 0, rate: 0, eta_s: '?' });
  const result = await rebuildReadModels({
    events,
    read,
    projectors: allProjectors,
    onProgress: (p) => bar.update(Math.round(p.fraction * 1000), { done: p.done, rate: Math.round(p.rate), eta_s: Math.ceil(p.etaSeconds) }),
  });
  bar.stop();
  console.log(
    `Terminé : ${result.events} événements en ${result.seconds.toFixed(1)} s (${Math.round(result.events / Math.max(result.seconds, 1e-6))} évt/s).`,
  );
  await read.close();
  await events.close();
} catch (e) {
  console.error(e instanceof ConfigError ? e.message : e);
  process.exit(1);
}
