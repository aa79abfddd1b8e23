export * from './port';
export { SqliteReadStore } from './sqlite-read-store';
export { MongoReadStore, type MongoReadStoreOptions } from './mongo-read-store';
