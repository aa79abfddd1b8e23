import { Worker } from 'node:worker_threads';

/**
 * The worker of a projections' thread, started on its module (JavaScript, or TypeScript run
 * through tsx). It loads its code, then waits for the data ProjectionThread posts to it: so the
 * embedded process can start it first thing, while it loads its own code (server/src/main.ts),
 * and hand it to its ProjectionThread later. Kept apart from projection-thread.ts so that starting
 * it loads nothing else.
 */
export function startThreadWorker(entry: URL): Worker {
  const typescript = entry.pathname.endsWith('.ts');
  const worker = new Worker(typescript ? new URL('./typescript-thread.mjs', import.meta.url) : entry, {
    workerData: { module: entry.href },
  });
  // a worker that fails before its ProjectionThread listens must not end the process: the thread
  // sees it gone (threadId -1) and starts another, which reports its failure
  worker.on('error', () => undefined);
  return worker;
}

/** Has this worker's thread ended (or is it ending)? */
export const hasEnded = (worker: Worker): boolean => worker.threadId === -1;
