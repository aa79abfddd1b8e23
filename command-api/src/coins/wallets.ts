import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { z, ZodTypeAny } from 'zod';
import type { CoinCommandAnswer } from '@evo/contracts';
import {
  DEFAULT_GIFT_CATALOGUE,
  DomainError,
  GIFT_CATALOGUE_STREAM,
  LEDGER_MESSAGES,
  LEDGER_SEQUENCE,
  NOT_YOURS,
  catalogueDecider,
  forbidden,
  keyMapGet,
  normalize,
  recordAmount,
  transactionIdOf,
  walletDecider,
  walletStream,
  type CatalogueCommand,
  type CatalogueEvent,
  type CatalogueGift,
  type CatalogueState,
  type LogPosition,
  type NewEvent,
  type RequestRecord,
  type RequestRef,
  type WalletCommand,
  type WalletEvent,
  type WalletState,
} from '@evo/domain';
import {
  WrongExpectedRevisionError,
  handleCommand,
  toNewEvents,
  type CommandContext,
  type EventStore,
  type IdAllocator,
} from '@evo/infra';
import type { AppDeps } from '../deps';
import { commandRoute } from '../http/read-your-writes';
import { MemberDirectory } from '../identity/members';
import { SandboxPaymentProvider, type PaymentProvider } from './payment-provider';

/**
 * The wallets' command side, shared by the coin and gift commands (each a file of its own:
 * coins/buy-pack.ts, add-coins.ts, withdraw-coins.ts; gifts/send-gift.ts, claim-gift.ts,
 * convert-gifts.ts) and the gift credits:
 * - `WalletRequests`, what every such command does: the session member's own email, a keyed retry
 *   answered from the wallet's record before anything else (no second payment, no new id), then the
 *   wallet decides and appends, and the answer is read from what the request did;
 * - `WalletRepository`, the wallets' folded state cached per stream, one writer queue per wallet;
 * - `CatalogueRepository`, the gift catalogue's folded state, which a send prices its gift from;
 * - `LedgerRepositories`, the set of command-side caches one process shares (wallets, the gift
 *   catalogue, the owners of emails and pseudos), built by the composition root.
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

/** The requests that move an amount of a member's own coins: the wallet's command and the event it records. */
const COIN_MOVES = {
  add: ['AddCoins', 'CoinsAdded'],
  withdraw: ['WithdrawCoins', 'CoinsWithdrawn'],
} as const;

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
    if ((await this.members.userIdOf(email)) !== userId) throw forbidden(NOT_YOURS.action);
  }

  /**
   * The request a member makes about their own wallet: 403 unless `email` is theirs, then the
   * request behind its Idempotency-Key (as `requestRef`, their normalised email first).
   */
  async ownRequest(
    userId: string,
    email: string,
    ctx: CommandContext,
    kind: RequestKind,
    ...values: Array<string | number>
  ): Promise<RequestRef | undefined> {
    await this.assertOwnEmail(userId, email);
    return requestRef(ctx, kind, normalize(email), ...values);
  }

  /**
   * A request that needs nothing but a new transaction id: a keyed retry answered from the wallet's
   * record (as `replay`), else a new id and the wallet's decision on `command(txId)` (as `run`).
   */
  async replayOrRun(
    userId: string,
    request: RequestRef | undefined,
    ctx: CommandContext,
    command: (txId: number) => WalletCommand,
    fallback: WalletEvent['type'],
  ): Promise<CoinAnswer> {
    const replayed = await this.replay(userId, request);
    if (replayed) return replayed;
    return this.run(command(await this.txId(ctx)), ctx, fallback);
  }

  /**
   * Coins added (free ones) or withdrawn (earned ones paid out): `amount` of the member's own wallet
   * (`email` theirs, as `ownRequest`), one new transaction (as `replayOrRun`).
   */
  async moveOwnCoins(
    userId: string,
    email: string,
    amount: number,
    kind: keyof typeof COIN_MOVES,
    ctx: CommandContext,
  ): Promise<CoinAnswer> {
    const request = await this.ownRequest(userId, email, ctx, kind, amount);
    const [type, event] = COIN_MOVES[kind];
    return this.replayOrRun(userId, request, ctx, (txId) => ({ type, userId, txId, amount, request }), event);
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

export interface WalletView {
  state: WalletState;
  /** revision of the wallet stream's last event, -1 when it does not exist */
  revision: number;
  /** position of its last event */
  position?: LogPosition;
}

export interface WalletOutcome {
  /** events this command wrote (none for a retry of a keyed request, or when nothing changes) */
  events: WalletEvent[];
  /** the wallet right after this command's events */
  state: WalletState;
  /** for a command with a `request`: what that request did, first call or retry (read back from the stream) */
  record?: RequestRecord;
  /** position of the append that carried this command's events, or of the wallet's last event */
  position?: LogPosition;
}

interface Pending {
  command: WalletCommand;
  ctx: CommandContext;
  resolve: (o: WalletOutcome) => void;
  reject: (e: unknown) => void;
}

interface Entry extends WalletView {
  userId: string;
  /** the stream was read into this entry at least once (else its state is only the initial one) */
  loaded: boolean;
  queue: Pending[];
  running: boolean;
}

const MAX_BATCH = 256;
const MAX_CONFLICTS = 100;
const MAX_CACHED = 20_000;

/**
 * The command side of wallets, as `handleCommand` does it (fold, decide, append with the expected
 * revision, decide again on a conflict), with two things for throughput:
 * - the folded wallet is cached per stream (the stream is append-only, so a cache is never wrong,
 *   only behind) and a decision is taken on it WITHOUT reading the stream first: the append's
 *   expected revision is the check. When another process appended meanwhile (a gift credit, a
 *   replica), the append is refused, the newer events are read, and the batch is decided again. So
 *   a send from a wallet this process keeps up to date costs one round trip to the store (the
 *   append), not two (a read, then the append);
 * - commands for one wallet queue in this process and are decided one after the other against
 *   the state left by the previous one, then appended together, at the expected revision, in ONE
 *   append. A refused command gets its own error; a conflict with another process re-decides the
 *   whole batch. So N concurrent spends from one wallet cost one append, not N rounds of conflicts,
 *   and can never overdraw it.
 * Under an Idempotency-Key, event ids derive from the key (`toNewEvents`), and the answer is read
 * from the stream's record of the request, so a retry (or a concurrent duplicate from another
 * process) answers exactly what the first call did.
 */
export class WalletRepository {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly events: EventStore) {}

  /** The wallet as the log has it now. */
  async view(userId: string): Promise<WalletView> {
    const entry = this.entry(userId);
    await this.refresh(entry);
    return { state: entry.state, revision: entry.revision, position: entry.position };
  }

  execute(command: WalletCommand, ctx: CommandContext): Promise<WalletOutcome> {
    const entry = this.entry(command.userId);
    return new Promise<WalletOutcome>((resolve, reject) => {
      entry.queue.push({ command, ctx, resolve, reject });
      if (!entry.running) void this.run(entry);
    });
  }

  private entry(userId: string): Entry {
    let entry = this.entries.get(userId);
    if (entry) {
      // most recently used last, for eviction
      this.entries.delete(userId);
    } else {
      entry = {
        userId,
        state: walletDecider.initialState(),
        revision: -1,
        position: undefined,
        loaded: false,
        queue: [],
        running: false,
      };
      if (this.entries.size >= MAX_CACHED) this.evict();
    }
    this.entries.set(userId, entry);
    return entry;
  }

  private evict() {
    for (const [id, e] of this.entries) {
      if (this.entries.size < MAX_CACHED * 0.9) return;
      if (!e.running && e.queue.length === 0) this.entries.delete(id);
    }
  }

  private async refresh(entry: Entry): Promise<void> {
    const newer = await this.events.readStream(walletStream(entry.userId), entry.revision + 1);
    for (const e of newer) {
      // a concurrent refresh may already have moved the entry past this event
      if (e.revision <= entry.revision) continue;
      entry.state = walletDecider.evolve(entry.state, e as unknown as WalletEvent);
      entry.revision = e.revision;
      entry.position = e.position;
    }
    entry.loaded = true;
  }

  private async run(entry: Entry): Promise<void> {
    entry.running = true;
    try {
      while (entry.queue.length > 0) {
        const batch = entry.queue.splice(0, MAX_BATCH);
        await this.processBatch(entry, batch);
      }
    } finally {
      entry.running = false;
    }
  }

  private async processBatch(entry: Entry, batch: Pending[]): Promise<void> {
    const streamId = walletStream(entry.userId);
    for (let attempt = 1; ; attempt++) {
      try {
        // the first attempt decides on the cached wallet (the append's expected revision checks it);
        // after a refused append, or for a wallet never read, the newer events are read first
        if (!entry.loaded || attempt > 1) await this.refresh(entry);
      } catch (e) {
        for (const p of batch) p.reject(e);
        return;
      }
      // decide each command against the state the previous ones leave
      let state = entry.state;
      const accepted: Array<{ p: Pending; rows: NewEvent[]; events: WalletEvent[]; state: WalletState }> = [];
      const refused: Array<{ p: Pending; error: unknown }> = [];
      for (const p of batch) {
        try {
          const decided = walletDecider.decide(p.command, state);
          const rows = decided.length ? toNewEvents(decided, streamId, p.ctx) : [];
          const events = rows.map((r) => ({ type: r.type, data: r.data }) as WalletEvent);
          state = events.reduce(walletDecider.evolve, state);
          accepted.push({ p, rows, events, state });
        } catch (error) {
          // a rule refused it (French DomainError); anything else (an event failing its schema) is our fault: 5xx
          refused.push({
            p,
            error:
              error instanceof DomainError
                ? error
                : new Error(`wallet ${entry.userId}: ${String(error)}`, { cause: error }),
          });
        }
      }
      const rows = accepted.flatMap((a) => a.rows);
      const keyed = accepted.some((a) => a.rows.length > 0 && a.p.ctx.idempotencyKey);
      let position = entry.position;
      if (rows.length > 0) {
        try {
          const r = await this.events.append(streamId, rows, entry.revision < 0 ? 'no_stream' : entry.revision);
          position = r.position;
          // this call's events written at the expected revision: the state decided is the stream's
          if ((r.written || !keyed) && r.nextRevision === entry.revision + rows.length) {
            entry.state = state;
            entry.revision = r.nextRevision;
            entry.position = r.position;
          } else {
            // ids derived from a key may have been stored by another call (not written by this one): read what is there
            await this.refresh(entry);
          }
        } catch (e) {
          if (e instanceof WrongExpectedRevisionError && attempt < MAX_CONFLICTS) {
            await new Promise((r) => setTimeout(r, Math.random() * Math.min(20, attempt * 2)));
            continue;
          }
          for (const p of batch) p.reject(e);
          return;
        }
      }
      for (const { p, error } of refused) p.reject(error);
      for (const a of accepted) {
        const request = 'request' in a.p.command ? a.p.command.request : undefined;
        const record = request ? keyMapGet(entry.state.requests, request.key) : undefined;
        if (request && !record) {
          a.p.reject(new Error(`request ${request.key} has no record in wallet ${entry.userId} after its append`));
          continue;
        }
        a.p.resolve({ events: a.events, state: a.state, record, position: a.rows.length ? position : entry.position });
      }
      return;
    }
  }
}

/**
 * The gift catalogue as commands read it (never from a read model): the `gift-catalogue` stream,
 * folded and cached, reading only newer events each time. Callers arriving together share one
 * read (every gift send asks for the catalogue: one round trip per send otherwise), and a caller
 * only joins a read that starts after it arrived, so it still sees every change committed before
 * its call (an administrator's new price, then their own gift).
 */
export class CatalogueRepository {
  private state: CatalogueState = catalogueDecider.initialState();
  private revision = -1;
  /** the read on its way, and the one the callers arrived during it wait for */
  private running: Promise<CatalogueState> | undefined;
  private next: Promise<CatalogueState> | undefined;

  constructor(private readonly events: EventStore) {}

  current(): Promise<CatalogueState> {
    if (!this.running) return this.start();
    this.next ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.start();
      });
    return this.next;
  }

  private start(): Promise<CatalogueState> {
    const read = this.read().finally(() => {
      if (this.running === read) this.running = undefined;
    });
    this.running = read;
    return read;
  }

  private async read(): Promise<CatalogueState> {
    for (const e of await this.events.readStream(GIFT_CATALOGUE_STREAM, this.revision + 1)) {
      if (e.revision <= this.revision) continue;
      this.state = catalogueDecider.evolve(this.state, e as unknown as CatalogueEvent);
      this.revision = e.revision;
    }
    return this.state;
  }

  async gift(id: number): Promise<CatalogueGift | undefined> {
    return (await this.current()).gifts[id];
  }

  execute(command: CatalogueCommand, ctx: CommandContext) {
    return handleCommand(this.events, GIFT_CATALOGUE_STREAM, catalogueDecider, command, ctx);
  }
}

/** The default catalogue exists (added once, on an empty stream): safe to run at every start. */
export async function ensureGiftCatalogue(
  events: EventStore,
  ctx: CommandContext,
  catalogue: CatalogueRepository = new CatalogueRepository(events),
): Promise<void> {
  await catalogue.execute({ type: 'SeedCatalogue', gifts: [...DEFAULT_GIFT_CATALOGUE] }, ctx);
}

/**
 * The command side's caches of the ledger: wallets (folded state, one writer queue per wallet), the
 * gift catalogue and the owners of emails and pseudos. One set per process, built by the
 * composition root and shared by the coin and gift commands, the gift credits and the
 * administrators' catalogue edits.
 */
export interface LedgerRepositories {
  wallets: WalletRepository;
  catalogue: CatalogueRepository;
  members: MemberDirectory;
}

export const ledgerRepositories = (events: EventStore): LedgerRepositories => ({
  wallets: new WalletRepository(events),
  catalogue: new CatalogueRepository(events),
  members: new MemberDirectory(events),
});

export interface CoinsRouterOptions {
  /** where pack purchases are paid; the sandbox approves at once */
  payment?: PaymentProvider;
}

/** A coin or gift command's handler: the session member's request, its body as the contract parsed it. */
export type WalletCommandHandler<Body> = (
  requests: WalletRequests,
  userId: string,
  body: Body,
  ctx: CommandContext,
) => Promise<CoinAnswer>;

/** The route of a coin or gift command (as `commandRoute`): its handler, with this app's wallet requests. */
export const walletCommandRoute = <S extends ZodTypeAny>(
  deps: AppDeps,
  requests: WalletRequests,
  schema: S,
  handler: WalletCommandHandler<z.output<S>>,
  ...guards: RequestHandler[]
): RequestHandler[] =>
  commandRoute(deps.sessions, schema, (me, body, ctx) => handler(requests, me, body, ctx), ...guards);

/** The wallet requests of a router, built once per app from its deps. */
export const walletRequestsOf = (deps: AppDeps, options: CoinsRouterOptions = {}) =>
  new WalletRequests(deps.events, {
    payment: options.payment ?? new SandboxPaymentProvider(),
    feePercent: deps.config.GIFT_FEE_PERCENT,
    ids: deps.ids,
    repositories: deps.ledger,
  });
