export * from './coins';
export * from './gifts';
export * from './social';
export * from './conversations';
export * from './identity';
export * from './admin';
export * from './analytics';
export * from './moderation';
