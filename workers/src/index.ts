export * from './handlers';
export * from './videos/probe';
export * from './videos/process-video';
export * from './ledger/gift-credits';
export * from './ledger/reconcile';
