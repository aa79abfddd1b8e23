export * from './events';
export * from './notification-rules';
export * from './notifications-decider';
