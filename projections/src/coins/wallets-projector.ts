import {
  TRANSACTION_TYPES,
  WALLET_EVENT_TYPES,
  isWalletEvent,
  packById,
  positionKey,
  type Posting,
  type WalletEvent,
  type WalletEventType,
} from '@evo/domain';
import type { Wallet } from '@evo/contracts';
import type { Doc } from '@evo/infra';
import type { Projector } from '../runtime/projector';
import { insertOnce, replaceIfNewer } from '../runtime/write-once';

export const COIN_WALLETS = 'coin_wallets';
export const COIN_MOVEMENTS = 'coin_movements';

/**
 * A member's balances (the product rule "Balance"), as the contract's `Wallet`: `coins_balance` is
 * every coin the member may spend, bought (user:<id>:balance), bonus (user:<id>:bonus) and earned
 * (user:<id>:earnings); `coins_withdrawable` the earned ones, the only ones a withdrawal takes;
 * `coins_bonus` the ones of free origin, never withdrawable; `gifts_unclaimed` the received gifts
 * not yet claimed or converted.
 */
export interface CoinWalletDoc extends Doc, Wallet {
  _id: string;
  user_id: string;
  /** log position of the last movement (string) */
  position: string;
  updated_at: string;
}

/** One coin movement of one member: their transaction history, the admin list and the audit. */
export interface CoinMovementDoc extends Doc {
  /** the event id */
  _id: string;
  user_id: string;
  /** transaction id (gift id for gifts) */
  tx_id: number;
  /** achat, ajout, retrait, cadeau_envoye, cadeau_recu, recuperation, conversion */
  type: string;
  event_type: string;
  /** signed change: of the balance, or of the unclaimed gifts for cadeau_recu (see `account`) */
  amount: number;
  account: 'balance' | 'gifts';
  created_at: string;
  position: string;
  pos_key: string;
  postings: Posting[];
  balance_after: number;
  gifts_after: number;
  /** null on movements recorded before the earnings account existed */
  earnings_after: number | null;
  /** null on movements recorded before the bonus account existed */
  bonus_after: number | null;
  actor: string | null;
  correlation_id: string;
  causation_id: string | null;
  /** how coins entered or left: the payment provider for achat, 'ajout', 'retrait'; null for gifts */
  method: string | null;
  /** coins that entered or left the platform (shown in the admin transactions list) */
  external: boolean;
  gift_id: number | null;
  /** the other member of a gift */
  counterpart_id: string | null;
  /** euro cents: a purchase's price, a withdrawal's payout (null otherwise, and for older withdrawals) */
  value_cents: number | null;
  /** a withdrawal: where the money went ('sandbox': nowhere) (null otherwise, and for older withdrawals) */
  payout: string | null;
  /** a purchase, for its receipt: the pack's name and the payment's reference (null otherwise; absent on older documents) */
  pack_name?: string | null;
  payment_ref?: string | null;
}

/** What a movement records of its event beyond the common fields (one shape for every type). */
type Described = Pick<
  CoinMovementDoc,
  'method' | 'external' | 'gift_id' | 'counterpart_id' | 'tx_id' | 'amount' | 'account'
>;

// one object shape, in the documents' field order (the order of the spread this replaced): spreads
// of differently shaped objects cost V8 a slow copy at every movement
const described = (
  method: string | null,
  external: boolean,
  gift_id: number | null,
  counterpart_id: string | null,
  tx_id: number,
  amount: number,
  account: CoinMovementDoc['account'],
): Described => ({ method, external, gift_id, counterpart_id, tx_id, amount, account });

function describe(e: WalletEvent): Described {
  switch (e.type) {
    case 'CoinsPurchased':
      return described(e.data.provider, true, null, null, e.data.txId, e.data.coins, 'balance');
    case 'CoinsAdded':
      return described('ajout', true, null, null, e.data.txId, e.data.amount, 'balance');
    case 'CoinsWithdrawn':
      return described('retrait', true, null, null, e.data.txId, -e.data.amount, 'balance');
    case 'GiftSent':
      return described(null, false, e.data.giftId, e.data.receiverId, e.data.giftId, -e.data.coinCost, 'balance');
    case 'GiftReceived':
      return described(null, false, e.data.giftId, e.data.senderId, e.data.giftId, e.data.amount, 'gifts');
    case 'GiftClaimed':
      return described(null, false, e.data.giftId, null, e.data.txId, e.data.amount, 'balance');
    case 'GiftsConverted':
      return described(null, false, null, null, e.data.txId, e.data.amount, 'balance');
    case 'WalletClosed':
      // the account was deleted: its spendable coins leave it (earnings paid out: coins leave the platform)
      return described('fermeture', e.data.paidOut > 0, null, null, 0, -closedSpendable(e), 'balance');
    case 'GiftForfeited':
      return described(null, false, e.data.giftId, e.data.senderId, e.data.giftId, 0, 'gifts');
  }
}

/** What a closing took out of the spendable balance (bought, bonus and earned coins: not the unclaimed gifts). */
function closedSpendable(e: Extract<WalletEvent, { type: 'WalletClosed' }>): number {
  return e.data.postings.filter((p) => !p.debit.endsWith(':gifts')).reduce((n, p) => n + p.amount, 0);
}

/** What a member sees of the balances a movement states (`after`). */
export const walletCoins = (after: { balance: number; earnings?: number; bonus?: number }) => ({
  coins_balance: after.balance + (after.earnings ?? 0) + (after.bonus ?? 0),
  coins_withdrawable: after.earnings ?? 0,
  coins_bonus: after.bonus ?? 0,
});

/**
 * Balances and coin movements. A wallet is REPLACED by the balances each event states (`after`),
 * never incremented, guarded by position, so a redelivery cannot drift it; a movement is inserted
 * once under its event id. Pushes `wallet:changed` to the member's room.
 */
export const walletsProjector: Projector = {
  name: 'wallets',
  collections: [COIN_WALLETS, COIN_MOVEMENTS],
  eventTypes: [...(WALLET_EVENT_TYPES as ReadonlySet<WalletEventType>)],
  indexes: {
    [COIN_MOVEMENTS]: [{ key: { user_id: 1, pos_key: -1 } }, { key: { external: 1, pos_key: -1 } }],
  },
  async project(event, store, ctx) {
    if (!isWalletEvent(event)) return;
    const e = { type: event.type, data: event.data } as WalletEvent;
    const d = e.data;
    const position = event.position.toString();
    const posKey = positionKey(event.position);
    const m = describe(e);
    await insertOnce(store.collection<CoinMovementDoc>(COIN_MOVEMENTS), {
      _id: event.id,
      user_id: d.userId,
      type: TRANSACTION_TYPES[e.type],
      event_type: e.type,
      created_at: event.metadata.at,
      position,
      pos_key: posKey,
      postings: d.postings,
      balance_after: d.after.balance,
      gifts_after: d.after.gifts,
      earnings_after: d.after.earnings ?? null,
      bonus_after: d.after.bonus ?? null,
      actor: event.metadata.userId ?? null,
      correlation_id: event.metadata.correlationId,
      causation_id: event.metadata.causationId ?? null,
      method: m.method,
      external: m.external,
      gift_id: m.gift_id,
      counterpart_id: m.counterpart_id,
      tx_id: m.tx_id,
      amount: m.amount,
      account: m.account,
      value_cents:
        e.type === 'CoinsWithdrawn'
          ? (e.data.valueCents ?? null)
          : e.type === 'CoinsPurchased'
            ? e.data.priceCents
            : null,
      payout: e.type === 'CoinsWithdrawn' ? (e.data.payout ?? null) : null,
      // the receipt names the pack as it was sold
      pack_name: e.type === 'CoinsPurchased' ? (packById(e.data.packId)?.name ?? null) : null,
      payment_ref: e.type === 'CoinsPurchased' ? e.data.paymentRef : null,
    });
    const coins = walletCoins(d.after);
    await replaceIfNewer(store.collection<CoinWalletDoc>(COIN_WALLETS), {
      _id: d.userId,
      user_id: d.userId,
      ...coins,
      gifts_unclaimed: d.after.gifts,
      position,
      updated_at: event.metadata.at,
      _pos: posKey,
    });
    ctx.push(`user:${d.userId}`, 'wallet:changed', { ...coins, gifts_unclaimed: d.after.gifts, position });
  },
};
