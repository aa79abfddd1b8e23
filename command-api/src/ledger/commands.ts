import type { CoinCommandAnswer } from '@evo/contracts';
import { createHash } from 'node:crypto';
import {
  DomainError,
  LEDGER_MESSAGES,
  LEDGER_SEQUENCE,
  forbidden,
  keyMapGet,
  normalize,
  notFound,
  packById,
  packPriceCents,
  purchaseRequestDecider,
  recordAmount,
  transactionIdOf,
  purchaseRequestStream,
  type LogPosition,
  type RequestRecord,
  type RequestRef,
  type WalletCommand,
  type WalletEvent,
  type WalletState,
} from '@evo/domain';
import { handleCommand, loadState, type CommandContext, type EventStore, type IdAllocator } from '@evo/infra';
import { WalletRepository, type WalletOutcome } from '../coins/wallet-repository';
import { CatalogueRepository } from '../gifts/catalogue-repository';
import { HttpError } from '../http/errors';
import { MemberDirectory } from '../identity/members';
import type { PaymentProvider } from './payment-provider';
import { ledgerRepositories, type LedgerRepositories } from './repositories';

/** What a coin command answers: the JSON body and the position it wrote (or the wallet's). */
export interface LedgerAnswer {
  body: CoinCommandAnswer;
  position?: LogPosition;
  /** true when this was a retry answered from the first call's record */
  replayed: boolean;
}

/** how long a purchase waits for a concurrent one under the same key before answering 409 */
const CONCURRENT_PURCHASE_WAIT_MS = 5000;

type Kind = 'purchase' | 'add' | 'withdraw' | 'convert' | 'claim' | 'send';

/** a fixed-length name for a member's key (keys are up to 200 characters of anything) */
const keyDigest = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 32);

/**
 * A reservation stream holds several events of one key (reserved, released, reserved again): their
 * ids must not derive from the key, or the later ones would be taken for the first. The expected
 * revision is their guard.
 */
const reservationContext = (ctx: CommandContext): CommandContext => ({ ...ctx, idempotencyKey: undefined });

/** The request behind an Idempotency-Key: route and normalised body, hashed. */
function requestRef(ctx: CommandContext, kind: Kind, ...values: Array<string | number>): RequestRef | undefined {
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

/**
 * The coin commands, as the routes (and the property test) run them. Each one: the body's email
 * must be the session member's (403 otherwise), a keyed retry answers from the wallet's record
 * before anything else (no second payment, no new id), then the wallet decides and appends.
 */
export class LedgerCommands {
  private readonly wallets: WalletRepository;
  private readonly catalogue: CatalogueRepository;
  private readonly members: MemberDirectory;

  constructor(
    private readonly events: EventStore,
    private readonly options: {
      payment: PaymentProvider;
      feePercent: number;
      /**
       * the process's id allocator (the composition root's): transaction and gift ids come by blocks
       * of `sequence-coin-transaction`, so a gift send costs no extra append in the common case
       */
      ids: IdAllocator;
      /** the process's repositories (the composition root's); a new set when not given (tests) */
      repositories?: LedgerRepositories;
    },
  ) {
    const repositories = options.repositories ?? ledgerRepositories(events);
    this.wallets = repositories.wallets;
    this.catalogue = repositories.catalogue;
    this.members = repositories.members;
  }

  /** A new transaction (or gift) id. */
  private txId(ctx: CommandContext): Promise<number> {
    return this.options.ids.next(LEDGER_SEQUENCE, ctx);
  }

  /** 403 unless `email` is the session member's own. */
  async assertOwnEmail(userId: string, email: string): Promise<void> {
    if ((await this.members.userIdOf(email)) !== userId) throw forbidden(LEDGER_MESSAGES.actionForbidden);
  }

  /** A retry of a keyed request already handled: its answer; a different request under the key: 409. */
  private async replay(userId: string, request: RequestRef | undefined): Promise<LedgerAnswer | undefined> {
    if (!request) return undefined;
    const view = await this.wallets.view(userId);
    const record = keyMapGet(view.state.requests, request.key);
    if (!record) return undefined;
    if (record.hash !== request.hash) throw new DomainError(LEDGER_MESSAGES.idempotencyConflict, 'conflict');
    return { body: answerOf(record), position: view.position, replayed: true };
  }

  private async run(command: WalletCommand, ctx: CommandContext, fallback: WalletEvent['type']): Promise<LedgerAnswer> {
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

  async purchase(userId: string, body: { email: string; packId: number }, ctx: CommandContext): Promise<LedgerAnswer> {
    await this.assertOwnEmail(userId, body.email);
    const pack = packById(body.packId);
    if (!pack) throw notFound(LEDGER_MESSAGES.packNotFound);
    const request = requestRef(ctx, 'purchase', normalize(body.email), pack.id);
    const replayed = await this.replay(userId, request);
    if (replayed) return replayed;
    // under a key, the key is reserved before the provider is called: one key, one charge
    const reservation = request ? await this.reservePurchase(userId, request, pack.id, ctx) : undefined;
    if (reservation && 'answer' in reservation) return reservation.answer;
    const txId = reservation?.txId ?? (await this.txId(ctx));
    const release = (reason: string) =>
      request
        ? handleCommand(
            this.events,
            purchaseRequestStream(userId, keyDigest(request.key)),
            purchaseRequestDecider,
            { type: 'ReleasePurchase', userId, request, reason },
            reservationContext(ctx),
          )
        : undefined;
    let payment;
    try {
      payment = await this.options.payment.charge({
        userId,
        packId: pack.id,
        amountCents: packPriceCents(pack),
        currency: 'EUR',
        description: `EVO — pack ${pack.name} (${pack.coins_amount} coins)`,
        reference: `achat-${txId}`,
        idempotencyKey: ctx.idempotencyKey,
      });
    } catch (e) {
      // the outcome is unknown: the key is freed, its retry charges again with the same reference and key
      await release('Erreur du prestataire de paiement.');
      throw e;
    }
    if (payment.status !== 'approved') {
      await release(LEDGER_MESSAGES.paymentDeclined);
      throw new HttpError(402, LEDGER_MESSAGES.paymentDeclined);
    }
    return this.run(
      {
        type: 'PurchaseCoins',
        userId,
        txId,
        pack,
        provider: this.options.payment.name,
        paymentRef: payment.reference,
        request,
      },
      ctx,
      'CoinsPurchased',
    );
  }

  /**
   * Reserve a purchase's key (`purchase-request-…`, expected revision): answers its transaction id,
   * or, when a request with this key is already being charged, the answer of that request once
   * the wallet records it (409 if it does not within a few seconds).
   */
  private async reservePurchase(
    userId: string,
    request: RequestRef,
    packId: number,
    ctx: CommandContext,
  ): Promise<{ txId: number } | { answer: LedgerAnswer }> {
    const stream = purchaseRequestStream(userId, keyDigest(request.key));
    let fresh: number | undefined;
    const { state } = await loadState(this.events, stream, purchaseRequestDecider);
    if (state.txId === null) fresh = await this.txId(ctx);
    try {
      const r = await handleCommand(
        this.events,
        stream,
        purchaseRequestDecider,
        (s) => ({
          type: 'ReservePurchase' as const,
          userId,
          request,
          txId: s.txId ?? fresh ?? 0,
          packId,
          now: ctx.now,
        }),
        reservationContext(ctx),
      );
      return { txId: r.state.txId! };
    } catch (e) {
      if (!(e instanceof DomainError) || e.message !== LEDGER_MESSAGES.purchaseInProgress) throw e;
      const deadline = Date.now() + CONCURRENT_PURCHASE_WAIT_MS;
      while (Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        const answer = await this.replay(userId, request);
        if (answer) return { answer };
      }
      throw e;
    }
  }

  async add(userId: string, body: { email: string; amount: number }, ctx: CommandContext): Promise<LedgerAnswer> {
    await this.assertOwnEmail(userId, body.email);
    const request = requestRef(ctx, 'add', normalize(body.email), body.amount);
    const replayed = await this.replay(userId, request);
    if (replayed) return replayed;
    const txId = await this.txId(ctx);
    return this.run({ type: 'AddCoins', userId, txId, amount: body.amount, request }, ctx, 'CoinsAdded');
  }

  async withdraw(
    userId: string,
    body: { user_email: string; amount: number },
    ctx: CommandContext,
  ): Promise<LedgerAnswer> {
    await this.assertOwnEmail(userId, body.user_email);
    const request = requestRef(ctx, 'withdraw', normalize(body.user_email), body.amount);
    const replayed = await this.replay(userId, request);
    if (replayed) return replayed;
    const txId = await this.txId(ctx);
    return this.run({ type: 'WithdrawCoins', userId, txId, amount: body.amount, request }, ctx, 'CoinsWithdrawn');
  }

  async convert(userId: string, body: { user_email: string }, ctx: CommandContext): Promise<LedgerAnswer> {
    await this.assertOwnEmail(userId, body.user_email);
    const request = requestRef(ctx, 'convert', normalize(body.user_email));
    const replayed = await this.replay(userId, request);
    if (replayed) return replayed;
    const txId = await this.txId(ctx);
    return this.run({ type: 'ConvertGifts', userId, txId, request }, ctx, 'GiftsConverted');
  }

  async claim(userId: string, body: { gift_id: number }, ctx: CommandContext): Promise<LedgerAnswer> {
    const request = requestRef(ctx, 'claim', body.gift_id);
    const replayed = await this.replay(userId, request);
    if (replayed) return replayed;
    const txId = await this.txId(ctx);
    return this.run({ type: 'ClaimGift', userId, txId, giftId: body.gift_id, request }, ctx, 'GiftClaimed');
  }

  async sendGift(
    userId: string,
    body: { sender_email: string; receiver_email?: string; receiver_pseudo?: string; gift_id: number },
    ctx: CommandContext,
  ): Promise<LedgerAnswer> {
    await this.assertOwnEmail(userId, body.sender_email);
    // the request as sent: an email as before (same hash for old clients' retries), a pseudo marked apart
    const receiverRef = [body.receiver_email, body.receiver_pseudo && `@${body.receiver_pseudo}`]
      .filter((v): v is string => Boolean(v))
      .map(normalize);
    const request = requestRef(ctx, 'send', normalize(body.sender_email), ...receiverRef, body.gift_id);
    const replayed = await this.replay(userId, request);
    if (replayed) return replayed;
    const byEmail = body.receiver_email ? await this.members.userIdOf(body.receiver_email) : undefined;
    const byPseudo = body.receiver_pseudo ? await this.members.userIdOfPseudo(body.receiver_pseudo) : undefined;
    const receiverId = byPseudo ?? byEmail;
    if (!receiverId) throw notFound(LEDGER_MESSAGES.receiverNotFound);
    if (body.receiver_email && body.receiver_pseudo && byEmail !== byPseudo) {
      throw new DomainError(LEDGER_MESSAGES.receiverMismatch, 'invalid');
    }
    // the rules (not to oneself, a gift of the catalogue, enough coins) are the decider's
    const gift = await this.catalogue.gift(body.gift_id);
    const giftId = await this.txId(ctx);
    return this.run(
      {
        type: 'SendGift',
        userId,
        giftId,
        receiverId,
        gift: gift ? { id: gift.id, name: gift.name, emoji: gift.emoji, coinCost: gift.coinCost } : null,
        feePercent: this.options.feePercent,
        request,
      },
      ctx,
      'GiftSent',
    );
  }
}
