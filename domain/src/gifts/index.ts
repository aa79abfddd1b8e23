export * from './events';
export * from './catalogue-decider';
