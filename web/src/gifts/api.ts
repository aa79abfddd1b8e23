import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  CoinCommandAnswer,
  giftRoutes,
  type CatalogueGift,
  type ReceivedGiftView,
  type SendGiftBody,
} from '@evo/contracts';
import { api } from '../api/http';
import { decode } from '../api/decode';
import { fetchRoute, refreshRoute, updateRoute, useRouteQuery } from '../api/queries';
import { useCurrentUser } from '../identity/sessionContext';
import { idempotencyHeaders } from '../api/idempotency';
import { useSocketEvents, type PushHandlers } from '../shell/socket';

/**
 * Gift calls, queries and pushes (the product API calls, "Gifts"; command-api/src/gifts/routes.ts):
 * the gift commands, the cached answers of the contract's gift routes (the catalogue, a member's
 * received gifts) and what the gift pushes change in them. No first screen needs this module: the
 * gift button loads it on a tap, the shell once the first screen is shown.
 */

/** the product entities, "Gift in catalogue". */
export type { CatalogueGift };

/** A received gift, as the server answers and pushes it (`amount`: coins credited after the fee). */
export type ReceivedGift = ReceivedGiftView;

/** What a gift command answers: a coin command's answer. */
export type GiftAnswer = CoinCommandAnswer;

/** The gift a video card sends (the product business constants). */
export const VIDEO_CARD_GIFT_ID = 1;

const enc = encodeURIComponent;

/** Same-origin URL of a gift image ('/uploads/…' and absolute URLs kept, bare names under /uploads/gifts). */
export function giftImageUrl(imageUrl: string): string | null {
  const value = imageUrl.trim();
  if (!value) return null;
  if (value.startsWith('/') || /^(https?:|data:)/.test(value)) return value;
  if (value.startsWith('uploads/')) return `/${value}`;
  return `/uploads/gifts/${enc(value)}`;
}

/** GET /api/gifts/balance/{email} → { balance } (the gift client's view of the balance). */
export async function fetchGiftBalance(email: string, signal?: AbortSignal): Promise<number> {
  return (await fetchRoute(giftRoutes.balance, { email }, undefined, signal)).balance;
}

/**
 * Who receives a gift: a member by pseudo (what members see of each other), or an address the page
 * was given (the product specification's `?receiver=` / `?to=` with an email, the /gift wrapper's fixed recipient).
 * `label` is what the page shows: never an email.
 */
export type GiftReceiver = { pseudo: string; label: string } | { email: string; label: string };

/** The receiver named by a pseudo ('@lea' or 'lea'). */
export const receiverByPseudo = (pseudo: string): GiftReceiver => {
  const bare = pseudo.trim().replace(/^@/, '');
  return { pseudo: bare, label: `@${bare}` };
};

/** A stable key for a receiver (idempotency keys of one action). */
export const receiverKey = (r: GiftReceiver) => ('pseudo' in r ? `@${r.pseudo.toLowerCase()}` : r.email.toLowerCase());

/** POST /api/gifts/send { sender_email, receiver_pseudo | receiver_email, gift_id } → { message, coins_balance } */
export async function sendGift(
  senderEmail: string,
  receiver: GiftReceiver,
  giftId: number,
  key: string,
): Promise<GiftAnswer> {
  const to = 'pseudo' in receiver ? { receiver_pseudo: receiver.pseudo } : { receiver_email: receiver.email };
  const body: SendGiftBody = { sender_email: senderEmail, ...to, gift_id: giftId };
  return decode(CoinCommandAnswer, await api.post('/api/gifts/send', body, { headers: idempotencyHeaders(key) }));
}

/** POST /api/gifts/claim { gift_id } → { message, coins_balance, gifts_unclaimed } */
export async function claimGift(giftId: number, key: string): Promise<GiftAnswer> {
  const body = { gift_id: giftId };
  return decode(CoinCommandAnswer, await api.post('/api/gifts/claim', body, { headers: idempotencyHeaders(key) }));
}

/** The gift catalogue (public; live: `giftPushes`). */
export const useCatalog = () => useRouteQuery(giftRoutes.catalog, {});

/** The member's received gifts (live: `giftPushes`). */
export function useReceivedGifts() {
  const { user } = useCurrentUser();
  return useRouteQuery(giftRoutes.received, user ? { email: user.email } : null);
}

/**
 * What the gift pushes change in the cache: 'gift:received' ({ gift }) puts the new gift on top of
 * the member's received ones at once; 'wallet:changed' (a claim or a conversion, maybe from another
 * tab) asks them again; 'catalogue:changed' (an administrator's edit) asks the catalogue again.
 */
export const giftPushes = (client: QueryClient, email: string): PushHandlers => ({
  'gift:received': ({ gift }) =>
    updateRoute(client, giftRoutes.received, { email }, (list) =>
      list.some((g) => g.id === gift.id) ? list : [gift, ...list],
    ),
  'wallet:changed': () => void refreshRoute(client, giftRoutes.received, { email }),
  'catalogue:changed': () => void refreshRoute(client, giftRoutes.catalog),
});

/** What `giftPushes` keeps fresh, asked again: the pushes sent before they were listened to are in the answers. */
export function refreshGifts(client: QueryClient, email: string): void {
  void refreshRoute(client, giftRoutes.received, { email });
  void refreshRoute(client, giftRoutes.catalog);
}

/**
 * Mounted once, by the shell, for the logged-in member. This module loads after the first screen,
 * beside the socket and with nothing ordering the two: a push that came first was heard by no one,
 * so what the screens show of it is asked again once the handlers listen.
 */
export function GiftsLive({ email }: { email: string }): null {
  const client = useQueryClient();
  useSocketEvents(giftPushes(client, email));
  useEffect(() => refreshGifts(client, email), [client, email]);
  return null;
}
