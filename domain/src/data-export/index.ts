// the event schemas (./events) are exported by the package index already
export * from './rules';
export * from './data-export-decider';
