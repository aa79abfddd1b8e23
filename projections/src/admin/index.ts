export * from './audit-projector';
export * from './queries';
