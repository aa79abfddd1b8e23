export * from './command-handler';
export * from './sequence';
