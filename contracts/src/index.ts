export * from './routes';
export * from './views';
export * from './answers';
export * from './coins';
export * from './push-events';
export * from './api-route';
