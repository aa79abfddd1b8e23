export * from './eventstore/port';
export * from './readstore/port';
export * from './jobs/port';
export * from './push/port';
