export * from './stats-projector';
export * from './queries';
export * from './as-of';
