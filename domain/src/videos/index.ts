export * from './events';
export * from './video-decider';
