import { describe, it, expect } from 'vitest';
import {
  loadConfig,
  ConfigError,
  DEMO_ADMIN_EMAIL,
  DEMO_ADMIN_PASSWORD,
  DEMO_MEMBER_PASSWORD,
  isLoopbackHost,
} from './config';
import { redactUrl, requireDistributedConfig } from '../services';

/** The ConfigError that loading the config from `env` throws (anything else fails the test). */
function refusalOf(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('config', () => {
  it('defaults to the embedded single process', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.embedded).toBe(true);
    expect(c.ADMIN_EMAIL).toBe(DEMO_ADMIN_EMAIL);
    // kept in DATA_DIR by sessionSecret(), so that sessions outlive a restart
    expect(c.SESSION_SECRET).toBeUndefined();
    expect(c.sessionSecretFile.endsWith('session-secret')).toBe(true);
    expect(c.eventsFile.endsWith('events.sqlite')).toBe(true);
    expect(c.REDIS_PREFIX).toBe('evo');
    expect(c.JOB_STALLED_SECONDS).toBe(30);
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
    [{ REDIS_PREFIX: 'a b' }, 'REDIS_PREFIX'],
    [{ REDIS_PREFIX: 'x'.repeat(65) }, 'REDIS_PREFIX'],
    [{ JOB_STALLED_SECONDS: '0' }, 'JOB_STALLED_SECONDS'],
    [{ HOST: 'pas une adresse' }, 'HOST'],
    [{ HOST: '0.0.0.0' }, 'ADMIN_PASSWORD'],
    [{ HOST: '192.168.1.20' }, 'ADMIN_PASSWORD'],
    [{ HOST: '::' }, 'ADMIN_PASSWORD'],
    [{ HTTPS_ONLY: 'oui' }, 'HTTPS_ONLY'],
  ])('refuses %o naming the variable', (env, variable) => {
    const err = refusalOf(env);
    expect(err.variable).toBe(variable);
    expect(err.message).toContain(variable);
  });
  it.each([
    'kurrentdb://localhost:2113?tls=false',
    'kurrentdb+discover://cluster.local:2113',
    'KurrentDB://x:2113',
    'kdb://x:2113',
  ])('refuses the successor client’s scheme %s with a message naming EVENTSTORE_URL and esdb://', (value) => {
    const err = refusalOf({ EVENTSTORE_URL: value, SESSION_SECRET: 'x'.repeat(20) });
    expect(err.variable).toBe('EVENTSTORE_URL');
    expect(err.message).toContain('EVENTSTORE_URL');
    expect(err.message).toContain('esdb://');
    expect(err.message).toContain('@eventstore/db-client');
  });
  it('accepts esdb:// and esdb+discover:// for EventStoreDB', () => {
    const secret = { SESSION_SECRET: 'x'.repeat(20) };
    expect(loadConfig({ EVENTSTORE_URL: 'esdb://localhost:2113?tls=false', ...secret }).EVENTSTORE_URL).toBe(
      'esdb://localhost:2113?tls=false',
    );
    expect(loadConfig({ EVENTSTORE_URL: ' esdb+discover://cluster.local:2113 ', ...secret }).EVENTSTORE_URL).toBe(
      'esdb+discover://cluster.local:2113',
    );
  });
  it('accepts postgres:// and postgresql:// for PostgreSQL', () => {
    const secret = { SESSION_SECRET: 'x'.repeat(20) };
    for (const url of ['postgres://evo:pw@db:5432/evo', 'postgresql://db/evo?sslmode=require']) {
      const c = loadConfig({ EVENTSTORE_URL: url, ...secret });
      expect(c.EVENTSTORE_URL).toBe(url);
      expect(c.embedded).toBe(false);
    }
  });
  it('runs distributed with a session secret', () => {
    const c = loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', SESSION_SECRET: 'x'.repeat(20) });
    expect(c.embedded).toBe(false);
  });
  it('listens on this machine only by default, elsewhere with an administrator password of its own', () => {
    expect(loadConfig({}).HOST).toBe('127.0.0.1');
    expect(loadConfig({ HOST: 'localhost' }).HOST).toBe('localhost');
    expect(loadConfig({ HOST: '::1' }).ADMIN_PASSWORD).toBe(DEMO_ADMIN_PASSWORD);
    const lan = loadConfig({ HOST: '0.0.0.0', ADMIN_PASSWORD: 'un-secret-a-moi' });
    expect(lan.HOST).toBe('0.0.0.0');
    expect(lan.ADMIN_PASSWORD).toBe('un-secret-a-moi');
  });
  it.each(['ADMIN_PASSWORD', 'DEMO_PASSWORD'] as const)(
    'refuses a password published in README.md as %s off loopback',
    (v) => {
      for (const published of [DEMO_ADMIN_PASSWORD, DEMO_MEMBER_PASSWORD]) {
        const env = { HOST: '0.0.0.0', ADMIN_PASSWORD: 'un-secret-a-moi', [v]: published };
        expect(() => loadConfig(env)).toThrow(
          expect.objectContaining({
            variable: v,
            message: expect.stringContaining(`${v} ne peut pas être un mot de passe publié dans README.md`),
          }),
        );
        // this machine only: the demo passwords are fine
        expect(loadConfig({ ...env, HOST: '127.0.0.1' })[v]).toBe(published);
      }
    },
  );
  it('hashes passwords at the standard cost unless told minimal, which only this machine may be told', () => {
    expect(loadConfig({}).PASSWORD_HASHING).toBe('standard');
    expect(loadConfig({ PASSWORD_HASHING: 'minimal' }).PASSWORD_HASHING).toBe('minimal');
    expect(refusalOf({ PASSWORD_HASHING: 'cheap' }).variable).toBe('PASSWORD_HASHING');
    const lan = { HOST: '0.0.0.0', ADMIN_PASSWORD: 'un-secret-a-moi' };
    expect(loadConfig(lan).PASSWORD_HASHING).toBe('standard');
    expect(() => loadConfig({ ...lan, PASSWORD_HASHING: 'minimal' })).toThrow(
      expect.objectContaining({
        variable: 'PASSWORD_HASHING',
        message: expect.stringContaining('PASSWORD_HASHING ne peut valoir minimal (réservé aux tests)'),
      }),
    );
  });
  it('reads the host names served from ALLOWED_HOSTS and PUBLIC_URL, and refuses others in French', () => {
    expect(
      loadConfig({ ALLOWED_HOSTS: ' Evo.Example.fr , 192.168.1.20,[::1]', PUBLIC_URL: 'https://Public.example.fr/evo' })
        .allowedHosts,
    ).toEqual(['evo.example.fr', '192.168.1.20', '::1', 'public.example.fr']);
    expect(loadConfig({}).allowedHosts).toEqual([]);
    expect(() => loadConfig({ ALLOWED_HOSTS: 'evo.fr,pas un nom' })).toThrow(
      expect.objectContaining({ variable: 'ALLOWED_HOSTS', message: expect.stringContaining('noms d’hôte') }),
    );
    expect(() => loadConfig({ PUBLIC_URL: 'evo.example.fr' })).toThrow(
      expect.objectContaining({ variable: 'PUBLIC_URL' }),
    );
    expect(() => loadConfig({ PUBLIC_URL: 'ftp://evo.example.fr' })).toThrow(
      expect.objectContaining({ variable: 'PUBLIC_URL' }),
    );
  });
  it('knows whether ADMIN_PASSWORD was given (a given one is applied at start)', () => {
    expect(loadConfig({}).adminPasswordGiven).toBe(false);
    expect(loadConfig({ ADMIN_PASSWORD: 'un-secret-a-moi' }).adminPasswordGiven).toBe(true);
  });
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['[::1]', true],
    ['localhost', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.20', false],
    ['evo.local', false],
  ])('%s is a loopback address: %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
  it('sends HSTS everywhere only when told the site is HTTPS only', () => {
    expect(loadConfig({}).HTTPS_ONLY).toBe(false);
    expect(loadConfig({ HTTPS_ONLY: 'true' }).HTTPS_ONLY).toBe(true);
  });
});

describe('what each distributed service needs', () => {
  const secret = { SESSION_SECRET: 'x'.repeat(20) };
  it.each([
    ['api', { REDIS_URL: 'redis://r:6379', ...secret }, 'MONGO_URL'],
    ['api', { MONGO_URL: 'mongodb://m/evo', ...secret }, 'REDIS_URL'],
    ['projections', { REDIS_URL: 'redis://r:6379', ...secret }, 'MONGO_URL'],
    ['projections', { MONGO_URL: 'mongodb://m/evo', ...secret }, 'REDIS_URL'],
    ['workers', {}, 'REDIS_URL'],
  ] as const)('%s refuses %o naming %s', (role, env, variable) => {
    expect(() => requireDistributedConfig(loadConfig(env), role)).toThrow(
      expect.objectContaining({ variable, message: expect.stringContaining(`${variable} est obligatoire`) }),
    );
  });
  it('the workers service needs no MongoDB', () => {
    expect(() =>
      requireDistributedConfig(loadConfig({ REDIS_URL: 'redis://r:6379', ...secret }), 'workers'),
    ).not.toThrow();
  });
  it('messages never show a password', () => {
    expect(redactUrl('redis://:s3cret@redis:6379/0')).toBe('redis://:***@redis:6379/0');
    expect(redactUrl('mongodb://evo:s3cret@mongo:27017/evo')).toBe('mongodb://evo:***@mongo:27017/evo');
    expect(redactUrl('mongodb://evo:s3cret@m1:1,m2:2/evo?replicaSet=rs0')).toBe(
      'mongodb://evo:***@m1:1,m2:2/evo?replicaSet=rs0',
    );
    expect(redactUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
  });
});
