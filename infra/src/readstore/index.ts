export * from './port';
export { SqliteReadStore, ReadModelFormatError } from './sqlite-read-store';
export { MongoReadStore } from './mongo-read-store';
