export * from './search-projector';
export * from './queries';
