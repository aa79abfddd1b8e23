import { z } from 'zod';
import { getRoute, pure } from './api-route';
import { EMAIL_MESSAGES } from './answers/identity';
import { PositionString } from './views';

/**
 * The contract of coins and gifts, one feature: the wallet, packs, withdrawals; the gift catalogue,
 * sending, receiving, claiming; the administrators' ledger audit and reconciliation. The French
 * messages of its commands, the request bodies, the answers and the `wallet:changed` and
 * `gift:received` pushes: a gift send's request (`SendGiftBody`), answer (`CoinCommandAnswer`) and
 * pushes are all here. The server parses with these schemas, the web app decodes with them.
 */

/** Limits of the coin ledger and gifts. */
export const LEDGER_LIMITS = {
  /** most coins one "add coins" call may add */
  maxAdd: 100_000,
  /** most coins a catalogue gift may cost */
  maxGiftCost: 1_000_000,
} as const;

/** The French messages of coin and gift commands (SPEC's strings), said by the server, shown by the web app. */
export const LEDGER_MESSAGES = {
  insufficient: 'Solde insuffisant.',
  notWithdrawable:
    'Solde retirable insuffisant : seuls les coins gagnés avec des cadeaux payés en coins achetés peuvent être retirés.',
  selfGift: "Tu ne peux pas t'offrir un cadeau.",
  receiverNotFound: 'Destinataire introuvable.',
  receiverRequired: '⚠️ Aucun destinataire.',
  receiverMismatch: "Le pseudo et l'adresse du destinataire ne désignent pas le même membre.",
  giftNotFound: 'Cadeau introuvable.',
  giftInvalid: 'Cadeau invalide.',
  alreadyClaimed: 'Cadeau déjà récupéré.',
  amountPositive: 'Le montant doit être supérieur à 0.',
  amountInteger: 'Le montant doit être un nombre entier.',
  /** a string that is not plain digits: '1e3', '10 coins', '1 000', 'mille' */
  amountNotDigits: 'Le montant doit être un nombre entier de coins écrit en chiffres, par exemple 1000.',
  amountTooLarge: 'Le montant ne peut pas dépasser 100 000 coins.',
  withdrawInvalid: '❌ Montant invalide.',
  packInvalid: 'Pack invalide.',
  packNotFound: 'Pack introuvable.',
  balanceTooLarge: 'Solde maximal atteint.',
  idempotencyConflict: "Clé d'idempotence déjà utilisée avec une autre requête.",
  purchaseInProgress: 'Un achat avec cette clé est déjà en cours. Réessaie dans un instant.',
  paymentDeclined: 'Paiement refusé.',
  freeCoinsDisabled: "L'ajout de coins gratuits est désactivé sur cette plateforme.",
  purchased: '✅ Achat effectué avec succès !',
  added: (n: number) => `✅ ${n} coins ajoutés avec succès.`,
  giftSent: '🎁 Cadeau envoyé !',
  claimed: '✅ Cadeau récupéré !',
  converted: (n: number) => `✅ ${n} coins récupérés sur ton solde.`,
  nothingToConvert: 'Aucun cadeau à récupérer.',
  walletClosed: "Ce compte a été supprimé : plus aucun mouvement de coins n'est possible.",
  withdrawn: (n: number) => `✅ Retrait de ${n} coins effectué.`,
} as const;

/** "12" (a form value) is read as 12; anything else is left for zod to judge. */
const digitsToNumber = (v: unknown) => (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v);

/** A whole number of coins or an id, every failure with the same French message (unless told). */
export const wholeNumber = (
  message: string,
  messages: { integer?: string; positive?: string; max?: number; tooLarge?: string; notDigits?: string } = {},
) =>
  z.preprocess(
    (v, ctx) => {
      const n = digitsToNumber(v);
      // text that is not digits ('1e3', '10 coins', '1 000') is told how to write the amount, when told
      if (messages.notDigits && typeof n === 'string' && n.trim() !== '') {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: messages.notDigits });
        return z.NEVER;
      }
      return n;
    },
    z
      .number({ required_error: message, invalid_type_error: message })
      .finite(message)
      .int(messages.integer ?? message)
      .positive(messages.positive ?? message)
      .max(messages.max ?? Number.MAX_SAFE_INTEGER, messages.tooLarge ?? message),
  );

/** A member's email in a command's body (the server checks it is the session member's own). */
export const memberEmail = (required: string = EMAIL_MESSAGES.emailRequired) =>
  z
    .string({ required_error: required, invalid_type_error: required })
    .trim()
    .min(1, required)
    .max(254, EMAIL_MESSAGES.emailInvalid)
    .email(EMAIL_MESSAGES.emailInvalid);

/** POST /api/coins/purchase */
export const PurchaseBody = pure(() =>
  z.object({ email: memberEmail(), packId: wholeNumber(LEDGER_MESSAGES.packInvalid) }),
);
/** POST /api/coins/add */
export const AddBody = pure(() =>
  z.object({
    email: memberEmail(),
    amount: wholeNumber(LEDGER_MESSAGES.amountPositive, {
      integer: LEDGER_MESSAGES.amountInteger,
      notDigits: LEDGER_MESSAGES.amountNotDigits,
      max: LEDGER_LIMITS.maxAdd,
      tooLarge: LEDGER_MESSAGES.amountTooLarge,
    }),
  }),
);
/** POST /api/coins/withdraw */
export const WithdrawBody = pure(() =>
  z.object({
    user_email: memberEmail(),
    amount: wholeNumber(LEDGER_MESSAGES.withdrawInvalid, { notDigits: LEDGER_MESSAGES.amountNotDigits }),
  }),
);
/** POST /api/coins/convert-gifts */
export const ConvertBody = pure(() => z.object({ user_email: memberEmail() }));
export type ConvertBody = z.infer<typeof ConvertBody>;
/** The member a read route names in its path (`/api/coins/balance/:email`…). */
export const EmailParam = pure(() =>
  z.object({
    email: z.string().trim().min(1, EMAIL_MESSAGES.emailRequired).max(254, EMAIL_MESSAGES.emailInvalid),
  }),
);

/**
 * A member's coins: the balance they can spend; the part of it earned from gifts paid with bought
 * coins (withdrawable); and the part of free origin (added without payment, or received through
 * gifts paid with such coins: never withdrawable, even once offered). The rest, bought coins, is
 * not withdrawable by the member but becomes withdrawable for whoever receives it as a gift.
 */
export const WalletCoins = z.object({
  coins_balance: z.number(),
  coins_withdrawable: z.number(),
  coins_bonus: z.number(),
});
export type WalletCoins = z.infer<typeof WalletCoins>;

/** The `wallet:changed` push (to `user:<id>`): the member's coins after any movement, their gifts not yet claimed. */
export const WalletChangedPush = WalletCoins.extend({ gifts_unclaimed: z.number(), position: PositionString });
export type WalletChangedPush = z.infer<typeof WalletChangedPush>;

/** A member's coins and their received gifts not yet claimed (the product entities, "Balance"). */
export const Wallet = WalletCoins.extend({ gifts_unclaimed: z.number() });
export type Wallet = z.infer<typeof Wallet>;

/** GET /api/coins/balance/:email: does the server accept "add coins" (ALLOW_FREE_COINS)? */
export const WalletAnswer = Wallet.extend({
  add_coins_enabled: z.boolean(),
  /** what a withdrawal pays, in euro cents per 100 coins (rounded down to the cent) */
  withdrawal_cents_per_100_coins: z.number(),
  /** where a withdrawal's money goes: 'sandbox' (nowhere: no real transfer) */
  withdrawal_payout: z.string(),
});
export type WalletAnswer = z.infer<typeof WalletAnswer>;

/** A line of a member's history, GET /api/coins/transactions/:email (the product entities, "Coin transaction"). */
export const CoinTransaction = z.object({
  id: z.number(),
  type: z.string(),
  /** signed: + coins in, − coins out */
  amount: z.number(),
  created_at: z.string(),
  /** which of the member's accounts moved: balance, or gifts (received, not yet claimed) */
  account: z.enum(['balance', 'gifts']),
  gift_id: z.number().nullable(),
  /** what the member may spend right after this movement (balance + earnings + bonus, as `coins_balance`) */
  coins_balance_after: z.number(),
  /** received gifts not yet claimed right after it (as `gifts_unclaimed`) */
  gifts_unclaimed_after: z.number(),
  /** the other member of a gift, by pseudo (never an email) */
  counterpart_pseudo: z.string().nullable(),
  /** euro cents: a purchase's price, a withdrawal's payout (null otherwise, and for older withdrawals) */
  value_cents: z.number().nullable(),
  /** a withdrawal: where the money went, 'sandbox' for none (null otherwise, and for older withdrawals) */
  payout: z.string().nullable(),
  /** a purchase (its receipt): the pack's name (null otherwise) */
  pack_name: z.string().nullable(),
  /** a purchase (its receipt): the payment provider's reference (null otherwise) */
  reference: z.string().nullable(),
});
export type CoinTransaction = z.infer<typeof CoinTransaction>;

/** A received gift as coins, GET /api/coins/received/:email (the product entities, "Received coin gift"). */
export const CoinGift = z.object({
  sender_email: z.string(),
  sender_pseudo: z.string(),
  gift_value: z.number(),
  /** coins credited (the gift's value less the platform's fee) */
  amount: z.number(),
  name: z.string(),
  emoji: z.string(),
  created_at: z.string(),
});
export type CoinGift = z.infer<typeof CoinGift>;

/** A pack of the shop, GET /api/coins/packs (the product entities, "Coin pack"). */
export const CoinPack = z.object({
  id: z.number(),
  name: z.string(),
  coins_amount: z.number(),
  /** euros, shown with 2 decimals */
  price_euros: z.number(),
});
export type CoinPack = z.infer<typeof CoinPack>;

/**
 * What a coin or gift command answers: always the message and the coins after it; the others by
 * command (`gifts_unclaimed` after a claim or conversion, `transferred` after a conversion, `id`
 * of the transaction after a gift send or a purchase: its receipt).
 */
export const CoinCommandAnswer = WalletCoins.extend({
  message: z.string(),
  gifts_unclaimed: z.number().optional(),
  transferred: z.number().optional(),
  id: z.number().optional(),
});
export type CoinCommandAnswer = z.infer<typeof CoinCommandAnswer>;

/**
 * POST /api/gifts/send. The receiver is named by `receiver_pseudo` (what members see of each
 * other) or, as the product specification lists it, by `receiver_email`; at least one, and both
 * must then name the same member.
 */
export const SendGiftBody = pure(() =>
  z
    .object({
      sender_email: memberEmail(),
      receiver_email: memberEmail(LEDGER_MESSAGES.receiverRequired).optional(),
      receiver_pseudo: z
        .string({ invalid_type_error: LEDGER_MESSAGES.receiverRequired })
        .trim()
        .min(1, LEDGER_MESSAGES.receiverRequired)
        .max(100, LEDGER_MESSAGES.receiverNotFound)
        .optional(),
      gift_id: wholeNumber(LEDGER_MESSAGES.giftInvalid),
    })
    .refine((b) => b.receiver_email !== undefined || b.receiver_pseudo !== undefined, {
      message: LEDGER_MESSAGES.receiverRequired,
      path: ['receiver_email'],
    }),
);
export type SendGiftBody = z.infer<typeof SendGiftBody>;

/** POST /api/gifts/claim */
export const ClaimBody = pure(() => z.object({ gift_id: wholeNumber(LEDGER_MESSAGES.giftInvalid) }));
export type ClaimBody = z.infer<typeof ClaimBody>;

/** A gift a member received, as their received-gifts table lists it. */
export const ReceivedGiftView = z.object({
  id: z.number(),
  name: z.string(),
  emoji: z.string(),
  sender_pseudo: z.string(),
  sender_email: z.string(),
  coin_cost: z.number(),
  /** coins credited to the receiver (the cost less the platform's fee) */
  amount: z.number(),
  sent_at: z.string(),
  claimed: z.boolean(),
});
export type ReceivedGiftView = z.infer<typeof ReceivedGiftView>;

/** The `gift:received` push (to the receiver's `user:<id>`): a gift they received. */
export const GiftReceivedPush = z.object({ gift: ReceivedGiftView });
export type GiftReceivedPush = z.infer<typeof GiftReceivedPush>;

/** A gift of the catalogue, GET /api/gifts/catalog (the product entities, "Gift in catalogue"). */
export const CatalogueGift = z.object({
  id: z.number(),
  name: z.string(),
  emoji: z.string(),
  image_url: z.string(),
  /** in coins */
  coin_cost: z.number(),
});
export type CatalogueGift = z.infer<typeof CatalogueGift>;

/** GET /api/gifts/balance/:email: the coins the member may spend, as the gift client reads them. */
export const GiftBalanceAnswer = z.object({ balance: z.number() });
export type GiftBalanceAnswer = z.infer<typeof GiftBalanceAnswer>;

/** A line of GET /api/coins/admin/transactions: coins bought, added or withdrawn (newest first). */
export const AdminCoinTransaction = z.object({
  id: z.number(),
  user_email: z.string(),
  /** signed: + coins in, − coins out */
  amount: z.number(),
  /** the payment provider for a purchase ('sandbox'), else the movement's type */
  method: z.string(),
  created_at: z.string(),
  type: z.string(),
});
export type AdminCoinTransaction = z.infer<typeof AdminCoinTransaction>;

/** One posting that touched a member's account, with the account's balance after it. */
export const LedgerAuditEntry = z.object({
  event_id: z.string(),
  position: z.string(),
  at: z.string(),
  event_type: z.string(),
  type: z.string(),
  tx_id: z.number(),
  actor: z.string().nullable(),
  correlation_id: z.string(),
  causation_id: z.string().nullable(),
  debit: z.string(),
  credit: z.string(),
  amount: z.number(),
  /** the member's account this line is about */
  account: z.string(),
  /** its change: + credited, − debited */
  delta: z.number(),
  /** running balance of `account` after this posting */
  balance_after: z.number(),
});
export type LedgerAuditEntry = z.infer<typeof LedgerAuditEntry>;

/** A member's ledger as the read models hold it, up to `as_of` (ISO) when given. */
export const LedgerAudit = Wallet.extend({
  as_of: z.string().nullable(),
  /** by account name (`user:<id>:balance`…) */
  balances: z.record(z.number()),
  /** the balances each event stated are the running ones */
  consistent: z.boolean(),
  /** oldest first */
  entries: z.array(LedgerAuditEntry),
});
export type LedgerAudit = z.infer<typeof LedgerAudit>;

/** GET /api/admin/ledger/:email?asOf= */
export const LedgerAuditAnswer = LedgerAudit.extend({
  user: z.object({ id: z.string(), email: z.string(), pseudo: z.string() }),
});
export type LedgerAuditAnswer = z.infer<typeof LedgerAuditAnswer>;

/**
 * The ledger events a coin audit line names (`event_type`, the log's own names): the web app gives
 * each a French label; projections/src/coins/ledger-event-types.test.ts keeps this list equal to
 * the wallet events the wallets projector writes.
 */
export const LEDGER_EVENT_TYPES = [
  'CoinsPurchased',
  'CoinsAdded',
  'CoinsWithdrawn',
  'GiftSent',
  'GiftReceived',
  'GiftClaimed',
  'GiftsConverted',
  'WalletClosed',
  'GiftForfeited',
] as const;
export type LedgerEventType = (typeof LEDGER_EVENT_TYPES)[number];

/** An invariant that did not hold at a position of the log. */
export const LedgerViolation = z.object({
  position: z.string(),
  event_id: z.string(),
  type: z.string(),
  stream_id: z.string(),
  /** which invariant ('sum_not_zero', 'negative_account'…) */
  rule: z.string(),
  message: z.string(),
});
export type LedgerViolation = z.infer<typeof LedgerViolation>;

/** GET /api/admin/ledger/reconcile: the whole log folded through the ledger's invariants. */
export const LedgerReconciliation = z.object({
  /** true when every invariant held at every position */
  ok: z.boolean(),
  /** events read from the log */
  events: z.number(),
  /** coin movements among them */
  movements: z.number(),
  last_position: z.string().nullable(),
  /** accounts ever touched */
  accounts: z.number(),
  totals: z.object({
    /** Σ of every account: always 0 when ok */
    sum: z.number(),
    external_payments: z.number(),
    external_credits: z.number(),
    external_withdrawals: z.number(),
    platform_fees: z.number(),
    /** coins of deleted accounts and the gifts that reached them */
    platform_forfeits: z.number(),
    transit_gifts: z.number(),
    users_balance: z.number(),
    users_earnings: z.number(),
    /** Σ user:<id>:bonus: coins of free origin */
    users_bonus: z.number(),
    users_gifts: z.number(),
  }),
  /** gifts sent and not yet credited to their receiver */
  pending_gifts: z.object({ count: z.number(), coins: z.number() }),
  first_violation: LedgerViolation.nullable(),
  violations: z.number(),
});
export type LedgerReconciliation = z.infer<typeof LedgerReconciliation>;

/** The coin routes the web app reads (a member's own wallet, history and received coins; the shop). */
export const coinRoutes = {
  wallet: getRoute('/api/coins/balance/:email', WalletAnswer),
  transactions: getRoute('/api/coins/transactions/:email', z.array(CoinTransaction)),
  received: getRoute('/api/coins/received/:email', z.array(CoinGift)),
  packs: getRoute('/api/coins/packs', z.array(CoinPack)),
  adminTransactions: getRoute('/api/coins/admin/transactions', z.array(AdminCoinTransaction)),
  ledgerAudit: getRoute('/api/admin/ledger/:email', LedgerAuditAnswer),
  reconciliation: getRoute('/api/admin/ledger/reconcile', LedgerReconciliation),
};

/** The gift routes the web app reads (the catalogue; a member's received gifts, their balance as the gift client reads it). */
export const giftRoutes = {
  catalog: getRoute('/api/gifts/catalog', z.array(CatalogueGift)),
  received: getRoute('/api/gifts/received/:email', z.array(ReceivedGiftView)),
  balance: getRoute('/api/gifts/balance/:email', GiftBalanceAnswer),
};
