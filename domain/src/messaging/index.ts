export * from './events';
export * from './profanity';
export * from './rules';
export * from './conversation-decider';
