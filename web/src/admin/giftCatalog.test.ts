import { describe, expect, it } from 'vitest';
import type { AdminGift } from './api';
import {
  applyOverride,
  EMPTY_OVERRIDE,
  filterGifts,
  giftImageSrc,
  nextLocalId,
  OVERRIDE_KEY,
  parsePrice,
  readGiftFields,
  readOverride,
  withDeletion,
  withUpsert,
  writeOverride,
} from './giftCatalog';

const gift = (id: number, name: string, price: number, image_url = ''): AdminGift => ({
  id,
  name,
  emoji: '🎁',
  price,
  image_url,
  coin_cost: price,
});

const server = [gift(1, 'Rose', 1), gift(2, 'Cœur', 5, '/uploads/gifts/coeur.png'), gift(7, 'Licorne', 500)];

describe('readGiftFields (the product validation rules, "Admin gift add")', () => {
  it('needs a name once trimmed', () => {
    expect(readGiftFields({ name: '   ', emoji: '', price: '3', image_url: '' })).toBeNull();
  });
  it('trims name and image_url, keeps emoji, converts the price with fallback 0', () => {
    expect(readGiftFields({ name: '  Étoile ', emoji: '⭐', price: '12', image_url: ' /x.png ' })).toEqual({
      name: 'Étoile',
      emoji: '⭐',
      price: 12,
      image_url: '/x.png',
    });
    expect(readGiftFields({ name: 'A', emoji: '', price: 'abc', image_url: '' })?.price).toBe(0);
    expect(parsePrice('')).toBe(0);
    expect(parsePrice('Infinity')).toBe(0);
    // as the server: whole coins within [0, 1 000 000]
    expect(parsePrice('12.6')).toBe(13);
    expect(parsePrice('-5')).toBe(0);
    expect(parsePrice('1e9')).toBe(1_000_000);
  });
});

describe('local mode override (the product business constants)', () => {
  it('gives a new local gift the highest existing id + 1', () => {
    expect(nextLocalId(server)).toBe(8);
    expect(nextLocalId([])).toBe(1);
  });

  it('applies additions, edits and deletions over the server list, by id', () => {
    let o = withUpsert(EMPTY_OVERRIDE, gift(8, 'Étoile', 3));
    o = withUpsert(o, { ...server[0], price: 2 });
    o = withDeletion(o, 7);
    expect(applyOverride(server, o).map((g) => [g.id, g.name, g.price])).toEqual([
      [1, 'Rose', 2],
      [2, 'Cœur', 5],
      [8, 'Étoile', 3],
    ]);
    // deleting a local addition forgets it; re-adding a deleted id brings it back
    o = withDeletion(o, 8);
    expect(o.upserts.map((g) => g.id)).toEqual([1]);
    o = withUpsert(o, gift(7, 'Licorne dorée', 600));
    expect(applyOverride(server, o).find((g) => g.id === 7)?.name).toBe('Licorne dorée');
  });

  it('round-trips through storage and ignores garbage', () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    };
    const o = withDeletion(withUpsert(EMPTY_OVERRIDE, gift(9, 'Ballon', 25)), 1);
    writeOverride(o, storage);
    expect(readOverride(storage)).toEqual(o);
    writeOverride(EMPTY_OVERRIDE, storage);
    expect(store.has(OVERRIDE_KEY)).toBe(false);
    store.set(OVERRIDE_KEY, '{"upserts":[{"id":"x"}],"deleted":[3,"4"]}');
    expect(readOverride(storage)).toEqual({ upserts: [], deleted: [3] });
    store.set(OVERRIDE_KEY, 'pas du json');
    expect(readOverride(storage)).toEqual(EMPTY_OVERRIDE);
  });
});

describe('filterGifts', () => {
  it('searches by name, price or image path', () => {
    expect(filterGifts(server, 'rose').map((g) => g.id)).toEqual([1]);
    expect(filterGifts(server, '500').map((g) => g.id)).toEqual([7]);
    expect(filterGifts(server, 'coeur.png').map((g) => g.id)).toEqual([2]);
    expect(filterGifts(server, '  ')).toHaveLength(3);
  });
});

describe('giftImageSrc', () => {
  it('keeps URLs and paths, puts bare names under /uploads/gifts', () => {
    expect(giftImageSrc('')).toBeNull();
    expect(giftImageSrc('/uploads/gifts/a.png')).toBe('/uploads/gifts/a.png');
    expect(giftImageSrc('https://cdn.example/a.png')).toBe('https://cdn.example/a.png');
    expect(giftImageSrc('rose rouge.png')).toBe('/uploads/gifts/rose%20rouge.png');
  });
});
