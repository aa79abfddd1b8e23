export * from './packs';
export * from './wallet-decider';
export * from './purchase-request-decider';
export * from './withdrawals';
