export * from './port';
export { SqliteReadStore } from './sqlite-read-store';
export { MongoReadStore } from './mongo-read-store';
