import type { AdminGift, GiftInput } from './api';

/**
 * Pure rules of the admin gift screen (the product validation rules, "Admin gift add", the product business constants "Admin gifts in local
 * mode") and the session-level override that local mode writes instead of calling the server.
 */

/** What the add and edit forms hold (raw text of the inputs). */
export interface GiftFields {
  name: string;
  emoji: string;
  price: string;
  image_url: string;
}

export const EMPTY_GIFT_FIELDS: GiftFields = { name: '', emoji: '', price: '', image_url: '' };

export function fieldsOf(gift: AdminGift): GiftFields {
  return { name: gift.name, emoji: gift.emoji, price: String(gift.price), image_url: gift.image_url };
}

/** Highest gift price the server accepts (coins). */
export const MAX_GIFT_PRICE = 1_000_000;

/**
 * Price converted to a number, 0 when invalid; then, as the server does (coins are whole and never
 * negative), rounded and kept within [0, 1 000 000], so local mode shows what the API would store.
 */
export function parsePrice(value: string): number {
  const n = Number(value.trim());
  if (value.trim() === '' || !Number.isFinite(n)) return 0;
  return Math.min(MAX_GIFT_PRICE, Math.max(0, Math.round(n)));
}

/**
 * Name and image_url trimmed, emoji defaulting to '' (trimmed, as the server stores it), price a
 * number (0 if invalid). Null when the trimmed name is empty (the screen then says 'Nom requis').
 */
export function readGiftFields(fields: GiftFields): GiftInput | null {
  const name = fields.name.trim();
  if (name === '') return null;
  return {
    name,
    emoji: (fields.emoji ?? '').trim(),
    price: parsePrice(fields.price),
    image_url: fields.image_url.trim(),
  };
}

/** Search by name, price or image path (case-insensitive). */
export function filterGifts(gifts: readonly AdminGift[], search: string): AdminGift[] {
  const q = search.trim().toLowerCase();
  if (q === '') return [...gifts];
  return gifts.filter(
    (g) => g.name.toLowerCase().includes(q) || String(g.price).includes(q) || g.image_url.toLowerCase().includes(q),
  );
}

/** Highest existing id + 1 (1 for an empty catalogue). */
export function nextLocalId(gifts: readonly AdminGift[]): number {
  return gifts.reduce((max, g) => Math.max(max, g.id), 0) + 1;
}

// ---------------------------------------------------------------------------
// Session-level override (sessionStorage)
// ---------------------------------------------------------------------------

export interface GiftOverride {
  /** gifts added or edited locally, by id */
  upserts: AdminGift[];
  /** ids deleted locally */
  deleted: number[];
}

export const EMPTY_OVERRIDE: GiftOverride = { upserts: [], deleted: [] };

export const OVERRIDE_KEY = 'evo.admin.gifts.local';

export function isEmptyOverride(override: GiftOverride): boolean {
  return override.upserts.length === 0 && override.deleted.length === 0;
}

/** The server list as this session sees it: deletions removed, local edits and additions applied. */
export function applyOverride(server: readonly AdminGift[], override: GiftOverride): AdminGift[] {
  const deleted = new Set(override.deleted);
  const upserts = new Map(override.upserts.map((g) => [g.id, g]));
  const list = server.filter((g) => !deleted.has(g.id)).map((g) => upserts.get(g.id) ?? g);
  const known = new Set(server.map((g) => g.id));
  const added = override.upserts.filter((g) => !known.has(g.id) && !deleted.has(g.id));
  return [...list, ...added].sort((a, b) => a.id - b.id);
}

export function withUpsert(override: GiftOverride, gift: AdminGift): GiftOverride {
  return {
    upserts: [...override.upserts.filter((g) => g.id !== gift.id), gift],
    deleted: override.deleted.filter((id) => id !== gift.id),
  };
}

export function withDeletion(override: GiftOverride, id: number): GiftOverride {
  return {
    upserts: override.upserts.filter((g) => g.id !== id),
    deleted: override.deleted.includes(id) ? override.deleted : [...override.deleted, id],
  };
}

function isGift(value: unknown): value is AdminGift {
  if (!value || typeof value !== 'object') return false;
  const g = value as Record<string, unknown>;
  return (
    typeof g.id === 'number' &&
    typeof g.name === 'string' &&
    typeof g.emoji === 'string' &&
    typeof g.price === 'number' &&
    typeof g.image_url === 'string'
  );
}

export function readOverride(storage: Pick<Storage, 'getItem'> | null = sessionStore()): GiftOverride {
  try {
    const raw = JSON.parse(storage?.getItem(OVERRIDE_KEY) ?? 'null') as Partial<GiftOverride> | null;
    if (!raw || typeof raw !== 'object') return EMPTY_OVERRIDE;
    return {
      upserts: Array.isArray(raw.upserts) ? raw.upserts.filter(isGift) : [],
      deleted: Array.isArray(raw.deleted) ? raw.deleted.filter((id): id is number => typeof id === 'number') : [],
    };
  } catch {
    return EMPTY_OVERRIDE;
  }
}

export function writeOverride(
  override: GiftOverride,
  storage: Pick<Storage, 'setItem' | 'removeItem'> | null = sessionStore(),
): void {
  try {
    if (isEmptyOverride(override)) storage?.removeItem(OVERRIDE_KEY);
    else storage?.setItem(OVERRIDE_KEY, JSON.stringify(override));
  } catch {
    // storage full or disabled: the override lives in memory for this page only
  }
}

function sessionStore(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/**
 * Where an image_url points: absolute URLs, /… paths and data:/blob: URLs as they are;
 * a bare file name is looked up under /uploads/gifts (the product API calls, "Files").
 */
export function giftImageSrc(imageUrl: string): string | null {
  const url = imageUrl.trim();
  if (url === '') return null;
  if (/^(https?:|data:|blob:|\/)/i.test(url)) return url;
  return `/uploads/gifts/${url.split('/').map(encodeURIComponent).join('/')}`;
}
