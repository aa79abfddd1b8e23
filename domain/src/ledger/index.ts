export * from './accounts';
export * from './events';
export * from './packs';
export * from './persistent-map';
export * from './rules';
export * from './wallet-decider';
export * from './ledger-audit';
export * from './purchase-request-decider';
