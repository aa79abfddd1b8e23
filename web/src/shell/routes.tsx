import { lazy, type ComponentType } from 'react';
import { membersOnly } from '../identity/RequireLogin';
import type { PlaceholderId } from '../placeholders/catalog';

/**
 * The route table (the product screens). Every screen is lazily imported, so it lands in
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

// forms and shared links: a visitor logs in first, then comes back here
const UploadScreen = membersOnly(lazy(() => import('../videos/UploadScreen')));

// Social, videos, notifications and messaging screens.
const FriendsFeedScreen = lazy(() => import('../social/FriendsFeedScreen'));
const SuggestionsScreen = lazy(() => import('../social/SuggestionsScreen'));
const ProfileScreen = membersOnly(lazy(() => import('../social/ProfileScreen')));
const FriendsScreen = lazy(() => import('../social/FriendsScreen'));
// a public video is for everyone (a shared link): visitors watch it read-only
const VideoScreen = lazy(() => import('../videos/VideoScreen'));
const NotificationsScreen = lazy(() => import('../notifications/NotificationsScreen'));
const InboxScreen = lazy(() => import('../messaging/InboxScreen'));
const ConversationScreen = lazy(() => import('../messaging/ConversationScreen'));
const SendMessageScreen = lazy(() => import('../messaging/SendMessageScreen'));

const AnalyticsScreen = membersOnly(lazy(() => import('../analytics/AnalyticsScreen')));

// Coins and gifts screens shown at two paths.
const WithdrawScreen = lazy(() => import('../coins/WithdrawScreen'));
const CoinsReceivedScreen = lazy(() => import('../coins/CoinsReceivedScreen'));

/** Rendered without the common layout. */
export const BARE_ROUTES: AppRoute[] = [
  { path: '/login', Screen: lazy(() => import('../identity/LoginScreen')) },
  { path: '/register', Screen: lazy(() => import('../identity/RegisterScreen')) },
  { path: '/mot-de-passe-oublie', Screen: lazy(() => import('../identity/ForgotPasswordScreen')) },
  { path: '/nouveau-mot-de-passe', Screen: lazy(() => import('../identity/ResetPasswordScreen')) },
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
  { path: '/create', Screen: membersOnly(lazy(() => import('../recorder/RecorderScreen'))) },
  { path: '/video/:id', Screen: VideoScreen },
  { path: '/test-video', Screen: lazy(() => import('../recorder/TestVideoScreen')) },
  { path: '/test', Screen: lazy(() => import('../recorder/CameraTestScreen')) },

  // Social
  { path: '/user/:pseudo', Screen: ProfileScreen },
  { path: '/profile', Screen: ProfileScreen },
  { path: '/friends', Screen: FriendsScreen },
  { path: '/friends-list', Screen: FriendsScreen },
  { path: '/notifications', Screen: NotificationsScreen },
  { path: '/recherche', Screen: lazy(() => import('../search/SearchScreen')) },
  { path: '/profil/modifier', Screen: membersOnly(lazy(() => import('../social/EditProfileScreen'))) },
  { path: '/moderation', Screen: membersOnly(lazy(() => import('../moderation/MyDecisionsScreen'))) },
  { path: '/mes-donnees', Screen: membersOnly(lazy(() => import('../data-export/MyDataScreen'))) },

  // Messaging
  { path: '/messages', Screen: InboxScreen },
  { path: '/messages/:pseudo', Screen: ConversationScreen },
  { path: '/conversation/:id', Screen: ConversationScreen },
  { path: '/send-message/:pseudo', Screen: SendMessageScreen },

  // Coins and gifts (web/src/coins, web/src/gifts; /vault/shop adds SPEC the product business constants's static pack list under the shop)
  { path: '/coffre', Screen: lazy(() => import('../gifts/VaultScreen')) },
  { path: '/coins/balance', Screen: lazy(() => import('../coins/BalanceScreen')) },
  { path: '/coins/transactions', Screen: lazy(() => import('../coins/TransactionsScreen')) },
  { path: '/coins/conversion', Screen: placeholder('conversion') },
  { path: '/coins/recu/:id', Screen: lazy(() => import('../coins/ReceiptScreen')) },
  { path: '/vault/withdraw', Screen: WithdrawScreen },
  { path: '/vault/shop', Screen: lazy(() => import('../coins/VaultShopScreen')) },
  { path: '/packs', Screen: lazy(() => import('../coins/ShopScreen')) },
  { path: '/cadeaux-recues', Screen: lazy(() => import('../gifts/ReceivedGiftsScreen')) },
  { path: '/envoyer-cadeau', Screen: placeholder('sendGift') },
  { path: '/historique', Screen: placeholder('history') },
  { path: '/cadeaux-coins', Screen: placeholder('giftsCoins') },
  { path: '/gift', Screen: lazy(() => import('../gifts/GiftShopScreen')) },
  { path: '/catalogue', Screen: lazy(() => import('../gifts/CatalogueScreen')) },
  { path: '/coins-received', Screen: CoinsReceivedScreen },
  { path: '/coins/received', Screen: CoinsReceivedScreen },
  { path: '/coins/retrait', Screen: WithdrawScreen },

  // Creator analytics (web/src/analytics): one's own, a video's, anyone's for administrators
  { path: '/analytics', Screen: AnalyticsScreen },
  { path: '/analytics/video/:id', Screen: AnalyticsScreen },

  // Administration (light top bar)
  { path: '/admin', Screen: lazy(() => import('../admin/AdminDashboardScreen')) },
  { path: '/admin/reports', Screen: lazy(() => import('../admin/ReportsScreen')) },
  { path: '/admin/transactions', Screen: lazy(() => import('../admin/TransactionsScreen')) },
  { path: '/admin/transactions/:email', Screen: lazy(() => import('../admin/LedgerAuditScreen')) },
  { path: '/admin/gifts', Screen: lazy(() => import('../admin/GiftsScreen')) },
  { path: '/admin/users', Screen: lazy(() => import('../admin/UsersScreen')) },
  { path: '/admin/tools', Screen: lazy(() => import('../admin/ToolsScreen')) },
  { path: '/admin/audit', Screen: lazy(() => import('../admin/AuditScreen')) },
  { path: '/admin/appeals', Screen: lazy(() => import('../moderation/AppealsScreen')) },
  { path: '/admin/restrictions', Screen: lazy(() => import('../moderation/RestrictionsScreen')) },
  { path: '/admin/stats', Screen: lazy(() => import('../admin/stats/StatsHubScreen')) },
  { path: '/admin/stats/general', Screen: lazy(() => import('../admin/stats/GeneralStatsScreen')) },
  { path: '/admin/stats/users', Screen: lazy(() => import('../admin/stats/UsersStatsScreen')) },
  { path: '/admin/stats/videos', Screen: lazy(() => import('../admin/stats/VideosStatsScreen')) },
  { path: '/admin/stats/messages', Screen: lazy(() => import('../admin/stats/MessagesStatsScreen')) },
  { path: '/admin/stats/gifts', Screen: lazy(() => import('../admin/stats/GiftsStatsScreen')) },
  { path: '/admin/stats/coins', Screen: lazy(() => import('../admin/stats/CoinsStatsScreen')) },
  { path: '/admin/stats/advanced', Screen: lazy(() => import('../admin/stats/AdvancedStatsScreen')) },
];

/** Any other path. */
export const NotFoundScreen = lazy(() => import('./NotFound'));
