export * from './rules';
export * from './events';
export * from './report-claim-decider';
export * from './report-decider';
export * from './operations-decider';
export * from './appeal-rules';
export * from './video-appeal-decider';
export * from './restriction-decider';
