import { describe, it, expect, afterEach } from 'vitest';
import type { Socket } from 'socket.io-client';
import { DEFAULT_GIFT_CATALOGUE, GIFT_ADMIN_MESSAGES, LEDGER_MESSAGES } from '@evo/domain';
import { demoVideo } from '../testing/test-server';
import { serverFixture } from '../testing/server-fixture';
import { UPLOAD_MESSAGES } from '../uploads/upload-store';
import { collect, eventually, imageForm, online } from './test-helpers';

const t = serverFixture({ admin: true, members: 2 });
const [sender, receiver] = t.members;

const sockets: Socket[] = [];
afterEach(() => {
  while (sockets.length) sockets.pop()!.disconnect();
});

type Gift = { id: number; name: string; emoji: string; price: number; image_url: string; coin_cost: number };

describe('gift catalogue management', () => {
  it('lists the catalogue with price = coin_cost', async () => {
    const list = (await t.admin.get('/api/admin/gifts')).json as unknown as Gift[];
    expect(list).toHaveLength(DEFAULT_GIFT_CATALOGUE.length);
    expect(list[0]).toEqual({ id: 1, name: 'Rose', emoji: '🌹', price: 1, image_url: '', coin_cost: 1 });
    expect(list.every((g) => g.price === g.coin_cost)).toBe(true);
  });

  it('adds (trimmed, emoji by default empty, price converted), edits and removes; the catalogue follows at once and is pushed', async () => {
    const watching = collect<{ gift_id: number; removed?: boolean }>(
      await online(t.server, sender.client, sockets),
      'catalogue:changed',
    );
    const added = await t.admin.post('/api/admin/gifts', {
      name: '  Étoile  ',
      price: '12',
      image_url: ' /uploads/gifts/etoile.png ',
    });
    expect(added.status).toBe(201);
    const gift = (added.json as { gift: Gift }).gift;
    expect(gift).toEqual({
      id: expect.any(Number),
      name: 'Étoile',
      emoji: '',
      price: 12,
      image_url: '/uploads/gifts/etoile.png',
      coin_cost: 12,
    });
    expect(gift.id).toBeGreaterThan(DEFAULT_GIFT_CATALOGUE.length);
    // the administrator's next read includes the write (read-your-writes)
    expect(((await t.admin.get('/api/gifts/catalog')).json as unknown as Gift[]).at(-1)).toEqual({
      id: gift.id,
      name: 'Étoile',
      emoji: '',
      image_url: '/uploads/gifts/etoile.png',
      coin_cost: 12,
    });

    const edited = await t.admin.put(`/api/admin/gifts/${gift.id}`, {
      name: 'Étoile filante',
      emoji: '🌠',
      price: 20.4,
      image_url: '',
    });
    expect(edited.status).toBe(200);
    expect(edited.json).toEqual({
      gift: { id: gift.id, name: 'Étoile filante', emoji: '🌠', price: 20, image_url: '', coin_cost: 20 },
    });
    // the same again: answered, nothing appended
    const before = await t.lastPosition();
    expect(
      (
        await t.admin.put(`/api/admin/gifts/${gift.id}`, {
          name: 'Étoile filante',
          emoji: '🌠',
          price: '20',
          image_url: '',
        })
      ).status,
    ).toBe(200);
    expect(await t.lastPosition()).toBe(before);

    // a member sends it (coins first), the receiver gets its name, emoji and cost
    expect((await sender.client.post('/api/coins/add', { email: sender.member.email, amount: 100 })).status).toBe(200);
    const sent = await sender.client.post('/api/gifts/send', {
      sender_email: sender.member.email,
      receiver_email: receiver.member.email,
      gift_id: gift.id,
    });
    expect(sent.status).toBe(200);
    await eventually(
      async () =>
        ((await receiver.client.get(`/api/gifts/received/${receiver.member.email}`)).json as unknown as unknown[])
          .length === 1,
      5000,
      'gift credited',
    );

    const removed = await t.admin.delete(`/api/admin/gifts/${gift.id}`);
    expect(removed.json).toEqual({ message: 'Cadeau supprimé.' });
    expect(((await t.admin.get('/api/gifts/catalog')).json as unknown as Gift[]).some((g) => g.id === gift.id)).toBe(
      false,
    );
    expect(((await t.admin.get('/api/admin/gifts')).json as unknown as Gift[]).some((g) => g.id === gift.id)).toBe(
      false,
    );
    await eventually(() => watching.length >= 3, 5000, 'catalogue:changed pushes');
    expect(watching.map((w) => [w.gift_id, w.removed ?? false])).toEqual([
      [gift.id, false],
      [gift.id, false],
      [gift.id, true],
    ]);

    // its history is intact: the received gift keeps its name, emoji and cost; the sender's history too
    const received = (await receiver.client.get(`/api/gifts/received/${receiver.member.email}`))
      .json as unknown as Array<Record<string, unknown>>;
    expect(received).toEqual([
      expect.objectContaining({
        name: 'Étoile filante',
        emoji: '🌠',
        coin_cost: 20,
        sender_email: sender.member.email,
        claimed: false,
      }),
    ]);
    const history = (await sender.client.get(`/api/coins/transactions/${sender.member.email}`))
      .json as unknown as Array<{ type: string; amount: number }>;
    expect(history[0]).toMatchObject({ type: 'cadeau_envoye', amount: -20 });
    // it can still be claimed, but no longer sent, edited or removed
    expect((await receiver.client.post('/api/gifts/claim', { gift_id: received[0].id })).status).toBe(200);
    const send = () =>
      sender.client.post('/api/gifts/send', {
        sender_email: sender.member.email,
        receiver_email: receiver.member.email,
        gift_id: gift.id,
      });
    await t.expectRefusals([
      [send, 404, LEDGER_MESSAGES.giftNotFound],
      [
        () => t.admin.put(`/api/admin/gifts/${gift.id}`, { name: 'Revenant', price: 1 }),
        404,
        LEDGER_MESSAGES.giftNotFound,
      ],
      [() => t.admin.delete(`/api/admin/gifts/${gift.id}`), 404, LEDGER_MESSAGES.giftNotFound],
    ]);
    // a new gift never takes a removed gift's id
    const next = (await t.admin.post('/api/admin/gifts', { name: 'Suivant', price: 1 })).json as { gift: Gift };
    expect(next.gift.id).toBe(gift.id + 1);
  });

  it('converts the price: "abc" → 0, negative → 0, decimals rounded; a free gift cannot be sent', async () => {
    const add = async (price: unknown) =>
      ((await t.admin.post('/api/admin/gifts', { name: 'Prix', price })).json as { gift: Gift }).gift.price;
    expect(await add('abc')).toBe(0);
    expect(await add(-5)).toBe(0);
    expect(await add('-5')).toBe(0);
    expect(await add(null)).toBe(0);
    expect(await add(undefined)).toBe(0);
    expect(await add('7.5')).toBe(8);
    expect(await add(1e12)).toBe(1_000_000);
    const free = (
      (await t.admin.post('/api/admin/gifts', { name: 'Gratuit', emoji: '🆓', price: 0 })).json as { gift: Gift }
    ).gift;
    const send = () =>
      sender.client.post('/api/gifts/send', {
        sender_email: sender.member.email,
        receiver_email: receiver.member.email,
        gift_id: free.id,
      });
    await t.expectRefused(send, 400, LEDGER_MESSAGES.giftInvalid);
  });

  it('refuses every bad input with a French message and appends nothing', async () => {
    await t.expectRefusals([
      [() => t.admin.post('/api/admin/gifts', { name: '   ', price: 3 }), 400, 'Nom requis'],
      [() => t.admin.post('/api/admin/gifts', { price: 3 }), 400, 'Nom requis'],
      [() => t.admin.post('/api/admin/gifts', {}), 400, 'Nom requis'],
      [
        () => t.admin.post('/api/admin/gifts', { name: 'x'.repeat(61), price: 3 }),
        400,
        GIFT_ADMIN_MESSAGES.nameTooLong,
      ],
      [
        () => t.admin.post('/api/admin/gifts', { name: 'Ok', emoji: { x: 1 }, price: 3 }),
        400,
        GIFT_ADMIN_MESSAGES.emojiInvalid,
      ],
      [
        () => t.admin.post('/api/admin/gifts', { name: 'Ok', price: 3, image_url: 'javascript:alert(1)' }),
        400,
        GIFT_ADMIN_MESSAGES.imageUrlInvalid,
      ],
      [() => t.admin.put('/api/admin/gifts/1', { name: '', price: 3 }), 400, 'Nom requis'],
      [() => t.admin.put('/api/admin/gifts/abc', { name: 'Ok', price: 3 }), 400, GIFT_ADMIN_MESSAGES.badGiftId],
      [() => t.admin.delete('/api/admin/gifts/-1'), 400, GIFT_ADMIN_MESSAGES.badGiftId],
      [() => t.admin.post('/api/admin/gifts', '{"name":'), 400],
    ]);
  });

  it('uploads gift images, images only (by content)', async () => {
    const r = await t.admin.post('/api/admin/gifts/image', imageForm());
    expect(r.status).toBe(201);
    expect(r.json.image_url).toMatch(/^\/uploads\/gifts\/[0-9a-f-]{36}\.png$/);
    const served = await t.admin.get(r.json.image_url as string);
    expect(served.status).toBe(200);
    // a text file named .png, a video named .png: refused by their content
    await t.expectRefused(
      () => t.admin.post('/api/admin/gifts/image', imageForm(Buffer.from('pas une image'), 'faux.png')),
      400,
      UPLOAD_MESSAGES.notAnImage,
    );
    const video = await demoVideo();
    await t.expectRefusals([
      [() => t.admin.post('/api/admin/gifts/image', imageForm(video, 'clip.png')), 400, UPLOAD_MESSAGES.notAnImage],
      [() => t.admin.post('/api/admin/gifts/image', new FormData()), 400, GIFT_ADMIN_MESSAGES.imageRequired],
      [() => t.admin.post('/api/admin/gifts/image', { image: 'x' }), 400, GIFT_ADMIN_MESSAGES.imageRequired],
    ]);
    const wrongField = new FormData();
    wrongField.append('photo', new Blob([new Uint8Array(Buffer.from('x'))]), 'x.png');
    await t.expectRefused(() => t.admin.post('/api/admin/gifts/image', wrongField), 400);
  });
});
