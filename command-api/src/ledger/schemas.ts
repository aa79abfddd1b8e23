import { z } from 'zod';
import { LEDGER_LIMITS, LEDGER_MESSAGES, MESSAGES } from '@evo/domain';

/** "12" (a form value) is read as 12; anything else is left for zod to judge. */
const digitsToNumber = (v: unknown) => (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v);

/** A whole number of coins or an id, every failure with the same French message (unless told). */
const wholeNumber = (
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

const email = (required: string = MESSAGES.emailRequired) =>
  z
    .string({ required_error: required, invalid_type_error: required })
    .trim()
    .min(1, required)
    .max(254, MESSAGES.emailInvalid)
    .email(MESSAGES.emailInvalid);

export const PurchaseBody = z.object({ email: email(), packId: wholeNumber(LEDGER_MESSAGES.packInvalid) });
export const AddBody = z.object({
  email: email(),
  amount: wholeNumber(LEDGER_MESSAGES.amountPositive, {
    integer: LEDGER_MESSAGES.amountInteger,
    notDigits: LEDGER_MESSAGES.amountNotDigits,
    max: LEDGER_LIMITS.maxAdd,
    tooLarge: LEDGER_MESSAGES.amountTooLarge,
  }),
});
export const WithdrawBody = z.object({
  user_email: email(),
  amount: wholeNumber(LEDGER_MESSAGES.withdrawInvalid, { notDigits: LEDGER_MESSAGES.amountNotDigits }),
});
export const ConvertBody = z.object({ user_email: email() });
export const ClaimBody = z.object({ gift_id: wholeNumber(LEDGER_MESSAGES.giftInvalid) });
/**
 * The receiver is named by `receiver_pseudo` (what members see of each other) or, as the product specification
 * lists it, by `receiver_email`; at least one, and both must then name the same member.
 */
export const SendGiftBody = z
  .object({
    sender_email: email(),
    receiver_email: email(LEDGER_MESSAGES.receiverRequired).optional(),
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
  });
export const EmailParam = z.object({
  email: z.string().trim().min(1, MESSAGES.emailRequired).max(254, MESSAGES.emailInvalid),
});
export const AsOfQuery = z.object({
  asOf: z
    .string({ invalid_type_error: 'Date invalide (format ISO attendu).' })
    .refine((v) => !Number.isNaN(Date.parse(v)), 'Date invalide (format ISO attendu).')
    .transform((v) => new Date(v).toISOString())
    .optional(),
});
