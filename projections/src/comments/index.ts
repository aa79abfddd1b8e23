export * from './comments-projector';
export * from './queries';
