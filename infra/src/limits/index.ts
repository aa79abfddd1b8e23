export * from './port';
export { MemoryRateLimitStore } from './memory-rate-limit-store';
export { RedisRateLimitStore } from './redis-rate-limit-store';
