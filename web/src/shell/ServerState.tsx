import { lazy, Suspense, type ReactNode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '../api/queries';
import { useAdminLive } from '../admin/live';
import { useCoinsLive } from '../coins/live';
import { useDataExportsLive } from '../data-export/live';
import { useGiftsLive } from '../gifts/live';
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
 * The video pushes come from the room of a video on screen, joined once the socket's code is loaded,
 * after the first paint: their handlers load then too, keeping the first page light.
 */
const VideosLive = lazy(() =>
  whenFirstScreenShown()
    .then(() => import('../videos/live'))
    .then((m) => ({ default: m.VideosLive })),
);

function MemberLiveUpdates({ email }: { email: string }) {
  useCoinsLive(email);
  useDataExportsLive();
  useGiftsLive(email);
  useMessagingLive(email);
  useModerationLive();
  useSocialLive(email);
  useNotificationsLive(email);
  return (
    <Suspense fallback={null}>
      <VideosLive />
    </Suspense>
  );
}

function AdminLiveUpdates() {
  useAdminLive();
  return null;
}
