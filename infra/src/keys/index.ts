export * from './port';
export { SqliteKeyStore } from './sqlite-key-store';
export { PostgresKeyStore } from './postgres-key-store';
export { MongoKeyStore } from './mongo-key-store';
export { CachedKeyStore, KeyDestructions } from './cached-key-store';
export { KeyDestructionRelay } from './key-destruction-relay';
