export * from './command-handler';
export * from './id-blocks';
