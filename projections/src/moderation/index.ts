export * from './reports-projector';
export * from './moderation-projector';
export * from './queries';
