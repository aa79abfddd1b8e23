export * from './reports-projector';
export * from './queries';
export * from './decisions-projector';
export * from './decision-queries';
