export * from './handlers';
export * from './videos/probe';
export * from './videos/process-video';
