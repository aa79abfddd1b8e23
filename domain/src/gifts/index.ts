export * from './events';
export * from './catalogue-decider';
export * from './admin-rules';
