export * from './catalogue-decider';
export * from './admin-rules';
