// The start and stop shared by the once-per-topology services of the distributed stack
// (projections-main.ts, workers-main.ts): settings checked and servers reached before anything
// starts, the members' keys and the log opened, /health and /ready served, a clean stop on a signal.
import {
  ConfigError,
  ServiceUnreachableError,
  checkDistributedServices,
  childLogger,
  loadConfig,
  openEventStore,
  openKeyStore,
  startHealthServer,
  type Config,
  type EventStore,
  type KeyStore,
} from '@evo/infra';

export interface ServiceOpened {
  config: Config;
  keys: KeyStore;
  /** the log, read and written through the members' keys */
  events: EventStore;
}

export interface RunningService {
  /** the long part of the start (a catch-up), run once /ready answers, so that it tells how far it is */
  start?(): Promise<void>;
  /** what /ready answers */
  ready(): Promise<boolean | { status: number; body: unknown }>;
  /** more for /health to say */
  about?: Record<string, string>;
  /** the start-up line of the log, once started (and what it details) */
  readyMessage: string;
  readyDetails?(): Record<string, unknown>;
  /** stops what the service started (the log and keys are closed after it) */
  stop(): Promise<void>;
}

export async function runService(
  name: 'projections' | 'workers',
  defaultHealthPort: number,
  build: (opened: ServiceOpened) => Promise<RunningService>,
): Promise<void> {
  const log = childLogger(name);
  try {
    const config = loadConfig();
    // its variables set and its servers answering before anything starts (no half-started service)
    await checkDistributedServices(config, name);
    const keys = await openKeyStore(config);
    const events = await openEventStore(config, keys);
    const service = await build({ config, keys, events });
    const health = await startHealthServer(
      Number(process.env.HEALTH_PORT ?? defaultHealthPort),
      () => service.ready(),
      service.about,
    );
    await service.start?.();
    log.info(service.readyDetails?.() ?? {}, service.readyMessage);
    const stop = async () => {
      await service.stop();
      await events.close();
      await keys.close();
      health.close();
      process.exit(0);
    };
    process.once('SIGTERM', () => void stop());
    process.once('SIGINT', () => void stop());
  } catch (e) {
    // a wrong setting or a server that does not answer: the operator's French line alone
    console.error(e instanceof ConfigError || e instanceof ServiceUnreachableError ? e.message : e);
    process.exit(1);
  }
}
