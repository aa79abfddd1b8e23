import { lazy, type ComponentType } from 'react';
import type { PlaceholderId } from '../placeholders/catalog';

/**
 * The route table (SPEC.md §2). Every screen is lazily imported, so it lands in
 * its own chunk and the initial bundle only holds the shell.
 *
 * To ship a real screen, replace its `placeholder('…')` with a lazy import, e.g.
 *   { path: '/feed', Screen: lazy(() => import('../social/FriendsFeedScreen')) },
 * (the module must `export default` the screen component).
 */

export interface AppRoute {
  path: string;
  Screen: ComponentType;
}

const PlaceholderScreen = lazy(() => import('../placeholders/PlaceholderScreen'));

/** A "coming soon" screen whose French title and sentence live in placeholders/catalog.ts. */
function placeholder(id: PlaceholderId): ComponentType {
  function Placeholder() {
    return <PlaceholderScreen id={id} />;
  }
  Placeholder.displayName = `Placeholder(${id})`;
  return Placeholder;
}

const UploadScreen = lazy(() => import('../videos/UploadScreen'));

// Social, videos, notifications and messaging screens.
const FriendsFeedScreen = lazy(() => import('../social/FriendsFeedScreen'));
const SuggestionsScreen = lazy(() => import('../social/SuggestionsScreen'));
const ProfileScreen = lazy(() => import('../social/ProfileScreen'));
const FriendsScreen = lazy(() => import('../social/FriendsScreen'));
const VideoScreen = lazy(() => import('../videos/VideoScreen'));
const NotificationsScreen = lazy(() => import('../notifications/NotificationsScreen'));
const InboxScreen = lazy(() => import('../messaging/InboxScreen'));
const ConversationScreen = lazy(() => import('../messaging/ConversationScreen'));
const SendMessageScreen = lazy(() => import('../messaging/SendMessageScreen'));

/** Rendered without the common layout. */
export const BARE_ROUTES: AppRoute[] = [
  { path: '/login', Screen: lazy(() => import('../identity/LoginScreen')) },
  { path: '/register', Screen: lazy(() => import('../identity/RegisterScreen')) },
];

/** Rendered inside the common layout (top bar + bottom bar). */
export const LAYOUT_ROUTES: AppRoute[] = [
  // Home and videos
  { path: '/', Screen: lazy(() => import('../home/HomeScreen')) },
  { path: '/feed', Screen: FriendsFeedScreen },
  { path: '/users-with-videos', Screen: SuggestionsScreen },
  { path: '/upload', Screen: UploadScreen },
  { path: '/upload/video', Screen: UploadScreen },
  { path: '/live', Screen: placeholder('live') },
  { path: '/create', Screen: lazy(() => import('../recorder/RecorderScreen')) },
  { path: '/video/:id', Screen: VideoScreen },
  { path: '/test-video', Screen: lazy(() => import('../recorder/TestVideoScreen')) },
  { path: '/test', Screen: lazy(() => import('../recorder/CameraTestScreen')) },

  // Social
  { path: '/user/:pseudo', Screen: ProfileScreen },
  { path: '/profile', Screen: ProfileScreen },
  { path: '/friends', Screen: FriendsScreen },
  { path: '/friends-list', Screen: FriendsScreen },
  { path: '/notifications', Screen: NotificationsScreen },

  // Messaging
  { path: '/messages', Screen: InboxScreen },
  { path: '/messages/:pseudo', Screen: ConversationScreen },
  { path: '/conversation/:id', Screen: ConversationScreen },
  { path: '/send-message/:pseudo', Screen: SendMessageScreen },

  // Coins and gifts
  { path: '/coffre', Screen: placeholder('coffre') },
  { path: '/coins/balance', Screen: placeholder('balance') },
  { path: '/coins/transactions', Screen: placeholder('transactions') },
  { path: '/coins/conversion', Screen: placeholder('conversion') },
  { path: '/vault/withdraw', Screen: placeholder('withdraw') },
  { path: '/vault/shop', Screen: placeholder('shop') },
  { path: '/packs', Screen: placeholder('packs') },
  { path: '/cadeaux-recues', Screen: placeholder('receivedGifts') },
  { path: '/envoyer-cadeau', Screen: placeholder('sendGift') },
  { path: '/historique', Screen: placeholder('history') },
  { path: '/cadeaux-coins', Screen: placeholder('giftsCoins') },
  { path: '/gift', Screen: placeholder('giftShop') },
  { path: '/catalogue', Screen: placeholder('catalogue') },
  { path: '/coins-received', Screen: placeholder('coinsReceived') },
  { path: '/coins/received', Screen: placeholder('coinsReceived') },
  { path: '/coins/retrait', Screen: placeholder('retrait') },

  // Administration (light top bar)
  { path: '/admin', Screen: placeholder('admin') },
  { path: '/admin/reports', Screen: placeholder('adminReports') },
  { path: '/admin/transactions', Screen: placeholder('adminTransactions') },
  { path: '/admin/gifts', Screen: placeholder('adminGifts') },
  { path: '/admin/users', Screen: placeholder('adminUsers') },
  { path: '/admin/tools', Screen: placeholder('adminTools') },
  { path: '/admin/audit', Screen: placeholder('adminAudit') },
  { path: '/admin/stats', Screen: placeholder('adminStats') },
  { path: '/admin/stats/general', Screen: placeholder('adminStatsGeneral') },
  { path: '/admin/stats/users', Screen: placeholder('adminStatsUsers') },
  { path: '/admin/stats/videos', Screen: placeholder('adminStatsVideos') },
  { path: '/admin/stats/messages', Screen: placeholder('adminStatsMessages') },
  { path: '/admin/stats/gifts', Screen: placeholder('adminStatsGifts') },
  { path: '/admin/stats/coins', Screen: placeholder('adminStatsCoins') },
  { path: '/admin/stats/advanced', Screen: placeholder('adminStatsAdvanced') },
];

/** Any other path. */
export const NotFoundScreen = lazy(() => import('./NotFound'));
