export * from './port';
export {
  SocketIoPushBus,
  RedisEmitterPushBus,
  attachRedisAdapter,
  assertPlainJson,
  type RedisPushOptions,
  type SocketIoPushOptions,
} from './socketio-push-bus';
