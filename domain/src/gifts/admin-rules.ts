import { z } from 'zod';
import { LEDGER_LIMITS } from '@evo/contracts';
import { GIFT_NAME_MAX, type GiftDescription } from './catalogue-decider';
import { cleanUserText } from '../shared/text';

export const GIFT_EMOJI_MAX = 16;
export const GIFT_IMAGE_URL_MAX = 500;

export const GIFT_ADMIN_MESSAGES = {
  /** the product validation rules, "Admin gift add" */
  nameRequired: 'Nom requis',
  nameTooLong: `Le nom ne doit pas dépasser ${GIFT_NAME_MAX} caractères.`,
  emojiInvalid: `L'emoji doit être un texte de ${GIFT_EMOJI_MAX} caractères au plus.`,
  imageUrlInvalid: "L'adresse de l'image doit être un chemin du site (/uploads/gifts/…) ou une adresse http(s).",
  imageRequired: 'Image requise.',
  badGiftId: 'Identifiant de cadeau invalide.',
  removed: 'Cadeau supprimé.',
} as const;

const M = GIFT_ADMIN_MESSAGES;

/**
 * The price of the admin form (the product validation rules): converted to a number, 0 when that fails; then,
 * since coins are whole and never negative, rounded to the nearest integer and clamped to
 * [0, 1 000 000] ('abc' → 0, '12.6' → 13, -5 → 0, 1e9 → 1 000 000, Infinity → 0).
 */
export function giftPrice(raw: unknown): number {
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw.trim()) : Number.NaN;
  if (!Number.isFinite(n)) return 0;
  return Math.min(LEDGER_LIMITS.maxGiftCost, Math.max(0, Math.round(n)));
}

const issue = (ctx: z.RefinementCtx, message: string) => {
  ctx.addIssue({ code: z.ZodIssueCode.custom, message });
  return z.NEVER;
};

/** Name: cleaned as all written text (`cleanUserText`), required ('Nom requis'), at most 60 characters. */
const nameField = z.unknown().transform((v, ctx) => {
  const name = typeof v === 'string' ? cleanUserText(v) : '';
  if (!name) return issue(ctx, M.nameRequired);
  if (name.length > GIFT_NAME_MAX) return issue(ctx, M.nameTooLong);
  return name;
});

/** Emoji: optional, '' by default, cleaned as all written text. */
const emojiField = z.unknown().transform((v, ctx) => {
  if (v === undefined || v === null) return '';
  const emoji = typeof v === 'string' ? cleanUserText(v) : undefined;
  if (emoji === undefined || emoji.length > GIFT_EMOJI_MAX) return issue(ctx, M.emojiInvalid);
  return emoji;
});

/** Image: optional, '' by default, trimmed; a path of this site or an http(s) address. */
const imageUrlField = z.unknown().transform((v, ctx) => {
  if (v === undefined || v === null) return '';
  if (typeof v !== 'string') return issue(ctx, M.imageUrlInvalid);
  const url = v.trim();
  if (url === '') return '';
  const ok =
    url.length <= GIFT_IMAGE_URL_MAX &&
    !/[\s"'<>\\]/.test(url) &&
    ((url.startsWith('/') && !url.startsWith('//')) || /^https?:\/\/[^/]/i.test(url));
  return ok ? url : issue(ctx, M.imageUrlInvalid);
});

/** The body of POST / PUT /api/admin/gifts: { name, emoji?, price, image_url? }. */
export const AdminGiftBody = z
  .object({ name: nameField, emoji: emojiField, price: z.unknown().transform(giftPrice), image_url: imageUrlField })
  .transform((b): GiftDescription => ({ name: b.name, emoji: b.emoji, imageUrl: b.image_url, coinCost: b.price }));
