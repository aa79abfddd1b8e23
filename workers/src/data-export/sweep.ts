import { DATA_EXPORT_TTL_MS } from '@evo/domain';
import { childLogger, type FileStore } from '@evo/infra';

const log = childLogger('data-export');

/** how often the expired archives are looked for */
export const EXPORT_SWEEP_EVERY_MS = 3600_000;

/**
 * Removes the archives past their link's life (DATA_EXPORT_TTL_MS after they were written: the
 * link's expiry follows the same moment, DataExportReady). The download route refuses them anyway
 * (410); this frees the space. Answers the names removed.
 */
export async function sweepExpiredExports(files: FileStore, now = new Date()): Promise<string[]> {
  const removed: string[] = [];
  for await (const f of files.list('exports')) {
    if (now.getTime() - f.modifiedAt.getTime() < DATA_EXPORT_TTL_MS) continue;
    await files.remove('exports', f.name);
    removed.push(f.name);
  }
  return removed;
}

/** The sweep at once, then every EXPORT_SWEEP_EVERY_MS, once per topology (workers service, or the embedded server). */
export function startExportSweeper(files: FileStore, everyMs = EXPORT_SWEEP_EVERY_MS): () => void {
  const run = () =>
    sweepExpiredExports(files).then(
      (removed) => {
        if (removed.length > 0) log.info({ removed }, 'expired data archives removed');
      },
      (err: unknown) => log.error({ err }, 'expired data archives not swept'),
    );
  void run();
  const timer = setInterval(() => void run(), everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
