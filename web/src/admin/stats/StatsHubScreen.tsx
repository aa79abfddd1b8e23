import { AdminCardNav, AdminPage } from '../AdminPage';
import { ChatIcon, CoinIcon, FilmIcon, FriendsIcon, GiftBoxIcon, TrendingIcon, TrophyIcon } from '../../shell/ui/icons';

const TITLE = 'Statistiques';

const PAGES = [
  {
    to: '/admin/stats/general',
    Icon: TrendingIcon,
    title: 'Générales',
    text: 'Utilisateurs, vidéos, cadeaux envoyés, coins des membres, messages publics.',
  },
  {
    to: '/admin/stats/users',
    Icon: FriendsIcon,
    title: 'Utilisateurs',
    text: 'Inscrits, comptes validés, nouveaux sur 30 jours, connexions sur 7 jours.',
  },
  {
    to: '/admin/stats/videos',
    Icon: FilmIcon,
    title: 'Vidéos',
    text: 'Vidéos publiques, masquées, supprimées et rejetées.',
  },
  { to: '/admin/stats/messages', Icon: ChatIcon, title: 'Messages', text: 'Messages publics et messages privés.' },
  { to: '/admin/stats/gifts', Icon: GiftBoxIcon, title: 'Cadeaux', text: 'Cadeaux envoyés et cadeaux du catalogue.' },
  {
    to: '/admin/stats/coins',
    Icon: CoinIcon,
    title: 'Coins',
    text: 'Coins achetés, ajoutés, sur les soldes, en cadeaux, en transit, retirés, et commissions.',
  },
  {
    to: '/admin/stats/advanced',
    Icon: TrophyIcon,
    title: 'Avancées',
    text: 'Meilleur créateur, vidéo la plus vue, signalements, moyenne par jour.',
  },
] as const;

/** /admin/stats: links to every stats page (the product screens). */
export default function StatsHubScreen() {
  return (
    <AdminPage title={TITLE} intro="Chaque page peut afficher les chiffres à une date passée.">
      <AdminCardNav label="Pages de statistiques" cards={PAGES} />
    </AdminPage>
  );
}
