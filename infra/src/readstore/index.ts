export * from './port';
export { SqliteReadStore, type QueryExplain, type SqliteReadStoreOptions } from './sqlite-read-store';
export { MongoReadStore, type MongoReadStoreOptions } from './mongo-read-store';
export * from './switchable-read-store';
export * from './read-model-files';
export { MongoReadModelGenerations, FollowingReadStore } from './mongo-generations';
