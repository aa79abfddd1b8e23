import type { CoinCommandAnswer } from '@evo/contracts';
import { createHash } from 'node:crypto';
import {
  DomainError,
  LEDGER_MESSAGES,
  LEDGER_SEQUENCE,
  forbidden,
  keyMapGet,
  recordAmount,
  transactionIdOf,
  type LogPosition,
  type RequestRecord,
  type RequestRef,
  type WalletCommand,
  type WalletEvent,
  type WalletState,
} from '@evo/domain';
import type { CommandContext, EventStore, IdAllocator } from '@evo/infra';
import type { WalletOutcome } from './wallet-repository';
import type { PaymentProvider } from './payment-provider';
import { ledgerRepositories, type LedgerRepositories } from '../ledger/repositories';

/**
 * What the coin and gift commands share (each command is a file of its own: coins/buy-pack.ts,
 * add-coins.ts, withdraw-coins.ts; gifts/send-gift.ts, claim-gift.ts, convert-gifts.ts): the
 * session member's own email, a keyed retry answered from the wallet's record before anything else
 * (no second payment, no new id), then the wallet decides and appends.
 */

/** What a coin command answers: the JSON body and the position it wrote (or the wallet's). */
export interface CoinAnswer {
  body: CoinCommandAnswer;
  position?: LogPosition;
  /** true when this was a retry answered from the first call's record */
  replayed: boolean;
}

export type RequestKind = 'purchase' | 'add' | 'withdraw' | 'convert' | 'claim' | 'send';

/** The request behind an Idempotency-Key: route and normalised body, hashed. */
export function requestRef(
  ctx: CommandContext,
  kind: RequestKind,
  ...values: Array<string | number>
): RequestRef | undefined {
  if (!ctx.idempotencyKey) return undefined;
  const hash = createHash('sha256')
    .update(JSON.stringify([kind, ...values]))
    .digest('hex')
    .slice(0, 32);
  return { key: ctx.idempotencyKey, hash };
}

/**
 * The answer of a request, from what it did (its record), first call or retry alike. `coins_balance`
 * is every coin the member may spend (bought, bonus and earned); `coins_withdrawable` the earned
 * ones, the only ones a withdrawal takes; `coins_bonus` those of free origin.
 */
function answerOf(r: RequestRecord): CoinCommandAnswer {
  const coins = {
    coins_balance: r.balance + r.earnings + r.bonus,
    coins_withdrawable: r.earnings,
    coins_bonus: r.bonus,
  };
  switch (r.event) {
    case 'CoinsPurchased':
      return { message: LEDGER_MESSAGES.purchased, ...coins, id: r.txId };
    case 'CoinsAdded':
      return { message: LEDGER_MESSAGES.added(r.amount), ...coins };
    case 'CoinsWithdrawn':
      return { message: LEDGER_MESSAGES.withdrawn(r.amount), ...coins };
    case 'GiftSent':
      return { message: LEDGER_MESSAGES.giftSent, ...coins, id: r.txId };
    case 'GiftClaimed':
      return { message: LEDGER_MESSAGES.claimed, ...coins, gifts_unclaimed: r.gifts };
    case 'GiftsConverted':
      return {
        message: r.amount > 0 ? LEDGER_MESSAGES.converted(r.amount) : LEDGER_MESSAGES.nothingToConvert,
        transferred: r.amount,
        ...coins,
        gifts_unclaimed: r.gifts,
      };
    default:
      throw new Error(`no answer for ${r.event}`);
  }
}

/** The record-like view of an unkeyed command's own events. */
function recordOf(events: WalletEvent[], state: WalletState, fallback: WalletEvent['type']): RequestRecord {
  const e = events[0];
  const amount = !e ? 0 : recordAmount(e);
  const txId = !e ? 0 : transactionIdOf(e);
  return {
    hash: '',
    event: e?.type ?? fallback,
    txId,
    amount,
    balance: state.balance,
    gifts: state.gifts,
    earnings: state.earnings,
    bonus: state.bonus,
  };
}

export interface WalletRequestOptions {
  payment: PaymentProvider;
  feePercent: number;
  /**
   * the process's id allocator (the composition root's): transaction and gift ids come by blocks
   * of `sequence-coin-transaction`, so a gift send costs no extra append in the common case
   */
  ids: IdAllocator;
  /** the process's repositories (the composition root's); a new set when not given (tests) */
  repositories?: LedgerRepositories;
}

/** The wallet requests of one process, built once from its deps. */
export class WalletRequests {
  readonly wallets;
  readonly catalogue;
  readonly members;

  constructor(
    readonly events: EventStore,
    readonly options: WalletRequestOptions,
  ) {
    const repositories = options.repositories ?? ledgerRepositories(events);
    this.wallets = repositories.wallets;
    this.catalogue = repositories.catalogue;
    this.members = repositories.members;
  }

  /** A new transaction (or gift) id. */
  txId(ctx: CommandContext): Promise<number> {
    return this.options.ids.next(LEDGER_SEQUENCE, ctx);
  }

  /** 403 unless `email` is the session member's own. */
  async assertOwnEmail(userId: string, email: string): Promise<void> {
    if ((await this.members.userIdOf(email)) !== userId) throw forbidden(LEDGER_MESSAGES.actionForbidden);
  }

  /** A retry of a keyed request already handled: its answer; a different request under the key: 409. */
  async replay(userId: string, request: RequestRef | undefined): Promise<CoinAnswer | undefined> {
    if (!request) return undefined;
    const view = await this.wallets.view(userId);
    const record = keyMapGet(view.state.requests, request.key);
    if (!record) return undefined;
    if (record.hash !== request.hash) throw new DomainError(LEDGER_MESSAGES.idempotencyConflict, 'conflict');
    return { body: answerOf(record), position: view.position, replayed: true };
  }

  async run(command: WalletCommand, ctx: CommandContext, fallback: WalletEvent['type']): Promise<CoinAnswer> {
    // event ids derive from the member's key in a namespace of its own, so that no key a member
    // chooses can ever produce the id of a gift credit (`gift-received-<id>`) or of another stream's event
    const walletCtx = ctx.idempotencyKey ? { ...ctx, idempotencyKey: `member-request:${ctx.idempotencyKey}` } : ctx;
    const outcome: WalletOutcome = await this.wallets.execute(command, walletCtx);
    const record = outcome.record ?? recordOf(outcome.events, outcome.state, fallback);
    return {
      body: answerOf(record),
      position: outcome.position,
      replayed: outcome.events.length === 0 && !!outcome.record,
    };
  }
}
