export * from './shared/envelope';
export * from './jobs';
