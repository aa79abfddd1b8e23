export * from './port';
export { MemoryReadStore, type QueryExplain } from './memory-read-store';
export { MongoReadStore, type MongoReadStoreOptions } from './mongo-read-store';
export * from './switchable-read-store';
