export * from './data-exports-projector';
export * from './queries';
