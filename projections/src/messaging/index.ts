export * from './messages-projector';
export * from './queries';
