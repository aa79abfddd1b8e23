import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../api/queries';
import { useAdminLive } from '../admin/live';
import { useCoinsLive } from '../coins/live';
import { useDataExportsLive } from '../data-export/live';
import { useMessagingLive } from '../messaging/live';
import { useModerationLive } from '../moderation/live';
import { useSocialLive } from '../social/live';
import { useNotificationsLive } from '../notifications/live';
import { readStoredUser, subscribeStoredUser } from '../identity/session';
import { useCurrentUser } from '../identity/sessionContext';
import { whenFirstScreenShown } from './firstScreen';

/** The app's one query cache (web/src/api/queries.ts). */
export const queryClient = createQueryClient();

/*
 * A member's answers are never shown to the next one: the cache is emptied as soon as the stored
 * member changes (a login, a logout, another tab's), before the screens render for the new one.
 */
let member = readStoredUser()?.email ?? null;
subscribeStoredUser(() => {
  const next = readStoredUser()?.email ?? null;
  if (next === member) return;
  member = next;
  queryClient.clear();
});

/** Provides the cache to the screens. */
export function ServerState({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

/** What each feature's pushes change in the cache, for the logged-in member (mounted once, inside the session). */
export function LiveUpdates() {
  const { user, isAdmin } = useCurrentUser();
  if (!user) return null;
  return (
    <>
      <MemberLiveUpdates key={user.email} email={user.email} />
      {isAdmin ? <AdminLiveUpdates /> : null}
    </>
  );
}

/*
 * The socket's code loads once the first screen is shown, and nothing is pushed before it connects:
 * the handlers whose modules no first screen needs are asked for then too (first: they are smaller
 * than the socket's code and ask for no handshake), keeping the first page light. The video pushes
 * come from the room of a video on screen; the gift pushes live with the gift calls.
 */
function liveAfterFirstScreen<P extends object>(load: () => Promise<ComponentType<P>>) {
  // a module that fails to load (a redeployment's chunks gone, the network) must not take the app
  // down with it (these render outside every error boundary): its pushes go unheard until a reload
  const nothing: ComponentType<P> = () => null;
  return lazy(() =>
    whenFirstScreenShown()
      .then(load)
      .catch(() => nothing)
      .then((component) => ({ default: component })),
  );
}
const VideosLive = liveAfterFirstScreen(() => import('../videos/live').then((m) => m.VideosLive));
const GiftsLive = liveAfterFirstScreen(() => import('../gifts/api').then((m) => m.GiftsLive));

function MemberLiveUpdates({ email }: { email: string }) {
  useCoinsLive(email);
  useDataExportsLive();
  useMessagingLive(email);
  useModerationLive();
  useSocialLive(email);
  useNotificationsLive(email);
  return (
    <Suspense fallback={null}>
      <VideosLive />
      <GiftsLive email={email} />
    </Suspense>
  );
}

function AdminLiveUpdates() {
  useAdminLive();
  return null;
}
