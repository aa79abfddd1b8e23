export * from './port';
export {
  SocketIoPushBus,
  RedisEmitterPushBus,
  attachRedisAdapter,
  assertPlainJson,
  type RedisPushOptions,
} from './socketio-push-bus';
