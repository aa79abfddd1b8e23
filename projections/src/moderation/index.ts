export * from './moderation-projector';
export * from './queries';
