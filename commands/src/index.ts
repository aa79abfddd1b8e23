export * from './ledger/wallets';
export * from './ledger/catalogue';
