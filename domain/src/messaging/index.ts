export * from './events';
export * from './profanity';
export * from './rules';
export * from './conversation-decider';
export * from './notification-rules';
export * from './notifications-decider';
