export * from './shared/envelope';
export * from './shared/decider';
export * from './shared/errors';
export * from './shared/sequence';
export * from './jobs';
export * from './events';
export * from './identity/index';
export * from './videos/index';
