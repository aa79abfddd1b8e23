import type { LogPosition } from '@evo/domain';
import type { EventStore, ReadStore } from '@evo/infra';
import type { Projector } from './projector';
import { ProjectionRunner } from './runner';
import { projectorFingerprint } from './fingerprint';

export interface RebuildProgress {
  done: number;
  /** events per second since the start */
  rate: number;
  /** estimated seconds left (from how far through the log's positions the rebuild is) */
  etaSeconds: number;
  /** 0..1 */
  fraction: number;
}

/**
 * Drop every read model and rebuild it from the whole log. The log's positions give the
 * fraction done (SQLite positions are contiguous; EventStoreDB's grow with the log's bytes).
 */
export async function rebuildReadModels(options: {
  events: EventStore;
  read: ReadStore;
  projectors: readonly Projector[];
  onProgress?: (p: RebuildProgress) => void;
  batchSize?: number;
}): Promise<{ events: number; seconds: number; position: LogPosition | undefined }> {
  const { events, read, projectors } = options;
  const last = await events.lastPosition();
  await read.dropAll();
  // the fingerprint of this code goes with the checkpoint: a server starting on them keeps them
  const fingerprint = projectorFingerprint(projectors);
  const runner = new ProjectionRunner({ events, read, projectors, fingerprint, batchSize: options.batchSize });
  const started = performance.now();
  let position: LogPosition | undefined;
  const report = (done: number, at: LogPosition | undefined) => {
    position = at;
    const seconds = (performance.now() - started) / 1000;
    const pos = at ?? 0n;
    const fraction = last === undefined || last === 0n ? 1 : Math.min(1, Number((pos * 10_000n) / last) / 10_000);
    const rate = seconds > 0 ? done / seconds : 0;
    const etaSeconds = fraction > 0 ? (seconds / fraction) * (1 - fraction) : 0;
    options.onProgress?.({ done, rate, etaSeconds, fraction });
  };
  // from empty: see ProjectionRunner.load (inside the store's bulkLoad: indexes built once at the end)
  const done = await runner.load(report);
  report(done, runner.currentPosition ?? position);
  return { events: done, seconds: (performance.now() - started) / 1000, position: runner.currentPosition };
}
