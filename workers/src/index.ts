export * from './handlers';
export * from './videos/probe';
export * from './videos/process-video';
export * from './ledger/wallets';
export * from './ledger/catalogue';
export * from './ledger/gift-credits';
export * from './ledger/reconcile';
