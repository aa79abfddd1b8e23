export * from './command-handler';
export * from './id-blocks';
export * from './folding-event-store';
