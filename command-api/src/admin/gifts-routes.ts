import { Router } from 'express';
import type { AdminGift, AdminGiftAnswer, GiftImageAnswer } from '@evo/contracts';
import { AdminGiftBody, GIFT_ADMIN_MESSAGES, type CatalogueGift } from '@evo/domain';
import { giftsQueries } from '@evo/projections';
import type { AppDeps } from '../deps';
import { HttpError, route } from '../http/errors';
import { answerMessage, answerWrite } from '../http/read-your-writes';
import { contextOf } from '../http/context';
import { firstFile } from '../uploads/upload-store';
import { requireAdmin } from './require-admin';
import { catalogueCommands } from './commands';
import { GiftIdParam } from './schemas';
import { bodyOf, parseInput } from '../http/request';

/** A gift as the admin screen reads it: `price` is `coin_cost`, in coins. */
const view = (g: CatalogueGift): AdminGift => ({
  id: g.id,
  name: g.name,
  emoji: g.emoji,
  price: g.coinCost,
  image_url: g.imageUrl,
  coin_cost: g.coinCost,
});

/**
 * The gift catalogue's management (the product rule "/admin/gifts", the product validation rules "Admin gift add"). Edits are
 * GiftAdded / GiftUpdated / GiftRemoved on `gift-catalogue`; gifts already sent keep their own copy
 * of the name, emoji and cost, and a removed gift can no longer be sent (404 'Cadeau introuvable.').
 */
export function adminGiftsRouter(deps: AppDeps): Router {
  const admin = requireAdmin(deps);
  const gifts = giftsQueries(deps.read);
  const catalogue = catalogueCommands(deps.ledger.catalogue);
  const r = Router();

  r.get(
    '/admin/gifts',
    ...admin,
    route(async (_req, res) => {
      res.json(
        (await gifts.catalog()).map((g) => ({
          id: g.id,
          name: g.name,
          emoji: g.emoji,
          price: g.coin_cost,
          image_url: g.image_url,
          coin_cost: g.coin_cost,
        })) satisfies AdminGift[],
      );
    }),
  );

  /** multipart field `image` (an image by its content) → 201 { image_url: '/uploads/gifts/<name>' } */
  r.post(
    '/admin/gifts/image',
    ...admin,
    deps.uploads.multipart([{ name: 'image', maxCount: 1, as: 'image', folder: 'gifts' }]),
    route(async (req, res) => {
      const file = firstFile(req, 'image');
      if (!file) throw new HttpError(400, GIFT_ADMIN_MESSAGES.imageRequired);
      const kept = await deps.uploads.keep(file, 'image', 'gifts');
      res.status(201).json({ image_url: `/uploads/gifts/${kept.name}` } satisfies GiftImageAnswer);
    }),
  );

  r.post(
    '/admin/gifts',
    ...admin,
    route(async (req, res) => {
      const gift = parseInput(AdminGiftBody, bodyOf(req));
      const result = await catalogue.add(gift, contextOf(req));
      await answerWrite(deps.sessions, req, res, result.position);
      const { giftId } = result.events[0].data;
      res.status(201).json({ gift: view({ id: giftId, ...gift }) } satisfies AdminGiftAnswer);
    }),
  );

  r.put(
    '/admin/gifts/:id',
    ...admin,
    route(async (req, res) => {
      const { id } = parseInput(GiftIdParam, req.params);
      const gift = parseInput(AdminGiftBody, bodyOf(req));
      const result = await catalogue.update(id, gift, contextOf(req));
      await answerWrite(deps.sessions, req, res, result.position);
      res.json({ gift: view(result.state.gifts[id]) } satisfies AdminGiftAnswer);
    }),
  );

  r.delete(
    '/admin/gifts/:id',
    ...admin,
    route(async (req, res) => {
      const { id } = parseInput(GiftIdParam, req.params);
      const result = await catalogue.remove(id, contextOf(req));
      await answerMessage(deps.sessions, req, res, result.position, GIFT_ADMIN_MESSAGES.removed);
    }),
  );

  return r;
}
