export * from './ledger-audit';
/** The coin and gift commands' limits and French messages are the contract's: the web app shows them too. */
export { LEDGER_LIMITS, LEDGER_MESSAGES } from '@evo/contracts';
