// A worker thread whose module is TypeScript, run from the sources (tests, scripts run through
// tsx): a worker does not inherit the loader of the thread that starts it, so tsx's is registered
// here before the module is imported.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
