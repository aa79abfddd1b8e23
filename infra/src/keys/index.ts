export * from './port';
export { SqliteKeyStore } from './sqlite-key-store';
export { PostgresKeyStore } from './postgres-key-store';
export { MongoKeyStore } from './mongo-key-store';
export { CachedKeyStore } from './cached-key-store';
