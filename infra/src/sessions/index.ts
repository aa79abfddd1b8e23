export * from './port';
export * from './memory-session-store';
export * from './redis-session-store';
export * from './sqlite-session-store';
