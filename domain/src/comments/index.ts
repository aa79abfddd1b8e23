export * from './events';
export * from './rules';
export * from './comment-decider';
