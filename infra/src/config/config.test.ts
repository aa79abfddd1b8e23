import { describe, it, expect } from 'vitest';
import { loadConfig, ConfigError, DEMO_ADMIN_EMAIL } from './config';

describe('config', () => {
  it('defaults to the embedded single process', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.embedded).toBe(true);
    expect(c.ADMIN_EMAIL).toBe(DEMO_ADMIN_EMAIL);
    expect(c.SESSION_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(c.eventsFile.endsWith('events.sqlite')).toBe(true);
  });
  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ EVENTSTORE_URL: 'http://x' }, 'EVENTSTORE_URL'],
    [{ MONGO_URL: 'postgres://x' }, 'MONGO_URL'],
    [{ REDIS_URL: 'x' }, 'REDIS_URL'],
    [{ ADMIN_EMAIL: 'nope' }, 'ADMIN_EMAIL'],
    [{ GIFT_FEE_PERCENT: '150' }, 'GIFT_FEE_PERCENT'],
    [{ REDIS_URL: 'redis://127.0.0.1:6379' }, 'SESSION_SECRET'],
  ])('refuses %o naming the variable', (env, variable) => {
    let err: unknown;
    try {
      loadConfig(env);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).variable).toBe(variable);
    expect((err as Error).message).toContain(variable);
  });
  it('runs distributed with a session secret', () => {
    const c = loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', SESSION_SECRET: 'x'.repeat(20) });
    expect(c.embedded).toBe(false);
  });
});
