import pino, { type Logger } from 'pino';

/**
 * LOG_LEVEL wins when given; otherwise tests are silent (their output is the test report)
 * and every other run logs at info.
 */
function levelFromEnv(env: NodeJS.ProcessEnv): string {
  const explicit = env.LOG_LEVEL?.trim();
  if (explicit) return explicit;
  if (env.NODE_ENV === 'test' || env.VITEST) return 'silent';
  return 'info';
}

/** JSON lines on stdout, one logger per process; services derive named children from it. */
export const logger: Logger = pino({ level: levelFromEnv(process.env) });

/** A logger whose lines carry `name` (the component: 'jobs', 'push', 'projections', ...). */
export function childLogger(name: string): Logger {
  return logger.child({ name });
}
