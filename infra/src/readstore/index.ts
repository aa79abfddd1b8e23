export * from './port';
export { SqliteReadStore, type QueryExplain, type SqliteReadStoreOptions } from './sqlite-read-store';
export { MongoReadStore, type MongoReadStoreOptions } from './mongo-read-store';
