// The composition root: what tests and scripts start the product from (the processes start from
// main.ts, projections-main.ts and workers-main.ts).
export { startServer, listeningUrl, type RunningServer, type ServerOptions } from './embedded';
