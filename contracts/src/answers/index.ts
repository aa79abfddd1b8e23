export * from './social';
export * from './conversations';
export * from './identity';
export * from './admin';
export * from './analytics';
export * from './moderation';
export * from './search';
export * from './data-export';
