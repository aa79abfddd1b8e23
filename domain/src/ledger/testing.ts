import { walletDecider, walletStream, type WalletCommand, type WalletState } from '../coins/wallet-decider';
import { LedgerAuditor, type AuditedEvent } from './ledger-audit';

/**
 * For the tests: a tiny log built through the wallet decider, one wallet state per member, and
 * audited as a whole.
 */
export function auditedLedger() {
  const states = new Map<string, WalletState>();
  const log: AuditedEvent[] = [];
  let position = 0n;
  const run = (command: WalletCommand) => {
    const state = states.get(command.userId) ?? walletDecider.initialState();
    const events = walletDecider.decide(command, state);
    states.set(command.userId, events.reduce(walletDecider.evolve, state));
    for (const e of events)
      log.push({ id: `e${++position}`, type: e.type, data: e.data, streamId: walletStream(command.userId), position });
    return events;
  };
  /** A gift sent, then received as the gift job receives it. */
  const sendAndReceive = (command: Extract<WalletCommand, { type: 'SendGift' }>) => {
    const [sent] = run(command);
    if (sent?.type !== 'GiftSent') throw new Error(`no gift sent: ${JSON.stringify(sent)}`);
    run({ type: 'ReceiveGift', userId: command.receiverId, sent: sent.data, sentAt: 'x' });
  };
  const audit = () => {
    const a = new LedgerAuditor();
    for (const e of log) a.apply(e);
    return a.report();
  };
  return { run, sendAndReceive, log, audit, state: (u: string) => states.get(u) ?? walletDecider.initialState() };
}
