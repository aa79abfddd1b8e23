export * from './analytics-projector';
export * from './queries';
export * from './days';
