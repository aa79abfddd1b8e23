// the event schemas (./events) are exported by the package index already
export * from './rules';
export * from './follow-decider';
export * from './like-decider';
export * from './favorites-decider';
export * from './views';
