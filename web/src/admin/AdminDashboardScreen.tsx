import { AdminCardNav, AdminPage } from './AdminPage';
import { formatNumber } from './format';
import { useStats } from './hooks';
import { StatGrid } from './StatGrid';
import { ChartIcon, CoinIcon, FlagIcon, FriendsIcon, GiftBoxIcon, ReceiptIcon, WrenchIcon } from '../shell/ui/icons';

const TITLE = 'Administration';
const INTRO = 'Signalements, cadeaux, coins, membres et statistiques de la plateforme.';

const CARDS = [
  {
    to: '/admin/stats',
    Icon: ChartIcon,
    title: 'Statistiques',
    text: 'Membres, vidéos, messages, cadeaux et coins, à la date de votre choix.',
  },
  {
    to: '/admin/reports',
    Icon: FlagIcon,
    title: 'Signalements',
    text: 'Traiter les vidéos signalées et répondre à leurs auteurs.',
  },
  {
    to: '/admin/appeals',
    Icon: FlagIcon,
    title: 'Contestations',
    text: 'Les décisions contestées par les membres, des plus anciennes aux plus récentes.',
  },
  {
    to: '/admin/restrictions',
    Icon: FriendsIcon,
    title: 'Restrictions',
    text: 'Restreindre un membre (publier, commenter, messages) et les restrictions en cours.',
  },
  {
    to: '/admin/gifts',
    Icon: GiftBoxIcon,
    title: 'Cadeaux',
    text: 'Ajouter, modifier et supprimer les cadeaux du catalogue.',
  },
  {
    to: '/admin/transactions',
    Icon: CoinIcon,
    title: 'Transactions',
    text: 'Achats, ajouts et retraits de coins, et l’audit des coins de chaque membre.',
  },
  {
    to: '/admin/users',
    Icon: FriendsIcon,
    title: 'Utilisateurs',
    text: 'Rechercher un membre, donner ou retirer les droits d’administrateur.',
  },
  {
    to: '/admin/tools',
    Icon: WrenchIcon,
    title: 'Outils',
    text: 'Cache, export, journaux et reconstruction des projections.',
  },
  {
    to: '/admin/audit',
    Icon: ReceiptIcon,
    title: 'Journal d’audit',
    text: 'Les actions des administrateurs, des plus récentes aux plus anciennes.',
  },
] as const;

/** /admin (the product screens, "Admin screens"). */
export default function AdminDashboardScreen() {
  return (
    <AdminPage title={TITLE} intro={INTRO} home>
      <Overview />
      <AdminCardNav label="Rubriques de l'administration" cards={CARDS} />
    </AdminPage>
  );
}

/** The basic stats call; a failure is treated as empty stats (the product error catalogue): nothing is shown. */
function Overview() {
  const stats = useStats('general', null);
  if (!stats.data) return null;
  const s = stats.data;
  return (
    <StatGrid
      label="Aperçu"
      items={[
        { label: 'Utilisateurs', value: formatNumber(s.users) },
        { label: 'Vidéos', value: formatNumber(s.videos) },
        { label: 'Cadeaux envoyés', value: formatNumber(s.gifts) },
        { label: 'Coins des utilisateurs (total)', value: formatNumber(s.coins) },
        { label: 'Messages publics', value: formatNumber(s.messages) },
      ]}
    />
  );
}
