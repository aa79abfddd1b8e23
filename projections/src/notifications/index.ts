export * from './notifications-projector';
export * from './queries';
