export * from './routes';
export * from './views';
export * from './push-events';
