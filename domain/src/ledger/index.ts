export * from './accounts';
export * from './events';
export * from './persistent-map';
export * from './rules';
export * from './ledger-audit';
