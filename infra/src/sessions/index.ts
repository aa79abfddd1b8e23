export * from './port';
export * from './memory-session-store';
export * from './redis-session-store';
