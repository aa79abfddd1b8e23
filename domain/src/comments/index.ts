export * from './rules';
export * from './comment-decider';
