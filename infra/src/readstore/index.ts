export * from './port';
export { MemoryReadStore, type MemoryStoreImage, type QueryExplain } from './memory-read-store';
export * from './memory-snapshot';
export { MongoReadStore, type MongoReadStoreOptions } from './mongo-read-store';
export * from './switchable-read-store';
export { GUARDED_WRITES, WriteBehindStore, type GuardedWrites } from './write-behind';
export { ScratchStore } from './scratch-store';
