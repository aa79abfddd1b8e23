import { useCurrentUser } from '../identity/sessionContext';
import { useSocketEvent } from '../shell/socket';
import { useLoad, type Loaded } from '../api/useLoad';
import { fetchCatalog, fetchReceivedGifts, type CatalogueGift, type ReceivedGift } from './api';

/** The gift catalogue (public), live: an administrator's edit ('catalogue:changed') reloads it. */
export function useCatalog(): Loaded<CatalogueGift[]> {
  const catalog = useLoad('gifts:catalog', fetchCatalog);
  useSocketEvent('catalogue:changed', catalog.reload);
  return catalog;
}

/**
 * The member's received gifts, live: a 'gift:received' push ({ gift }) puts the new gift on
 * top at once; a 'wallet:changed' push (a claim or a conversion, maybe from another tab)
 * reloads the list, keeping it on screen meanwhile.
 */
export function useReceivedGifts(): Loaded<ReceivedGift[]> & { email: string | null } {
  const { user } = useCurrentUser();
  const email = user?.email ?? null;
  const loaded = useLoad(email ? `gifts:received:${email}` : null, (signal) => fetchReceivedGifts(email ?? '', signal));
  const { setData, reload } = loaded;

  useSocketEvent('gift:received', ({ gift }) => {
    setData((list) => (list.some((g) => g.id === gift.id) ? list : [gift, ...list]));
  });
  useSocketEvent('wallet:changed', reload);

  return { ...loaded, email };
}
