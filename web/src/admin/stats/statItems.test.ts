import { describe, expect, it } from 'vitest';
import type { StatItem } from '../StatGrid';
import { advancedStatItems } from './AdvancedStatsScreen';
import { coinsStatItems } from './CoinsStatsScreen';
import { generalStatItems } from './GeneralStatsScreen';
import { videosStatItems } from './VideosStatsScreen';

const nbsp = (s: string) => s.replace(/\s/g, ' ');
const shown = (items: StatItem[]) => Object.fromEntries(items.map((i) => [i.label, nbsp(String(i.value))]));
const values = (items: StatItem[]) => items.map((i) => nbsp(String(i.value)));

/** Objects as projections/src/stats/queries.ts answers them (one distinct value per field). */
describe('stats pages show every figure the server sends', () => {
  it('general', () => {
    expect(shown(generalStatItems({ users: 3, videos: 2, gifts: 5, coins: 1250, messages: 7 }))).toEqual({
      Utilisateurs: '3',
      Vidéos: '2',
      'Cadeaux envoyés': '5',
      'Coins des utilisateurs (total)': '1 250',
      'Messages publics': '7',
    });
  });

  it('coins, with coins_added and coins_in_transit', () => {
    const items = coinsStatItems({
      coins_bought: 110,
      coins_added: 40,
      coins_in_balances: 125,
      coins_in_unclaimed_gifts: 9,
      coins_in_transit: 1,
      coins_withdrawn: 15,
      fees: 2,
      purchases: 3,
    });
    expect(items.map((i) => i.label)).toEqual([
      'Coins achetés',
      'Coins ajoutés sans paiement',
      'Coins sur les soldes des membres',
      'Coins en cadeaux non récupérés',
      'Coins de cadeaux en transit',
      'Coins retirés',
      'Commissions de la plateforme',
      'Achats de packs',
    ]);
    expect(values(items)).toEqual([
      '110 coins',
      '40 coins',
      '125 coins',
      '9 coins',
      '1 coin',
      '15 coins',
      '2 coins',
      '3',
    ]);
  });

  it('videos, with rejected_videos', () => {
    expect(
      values(
        videosStatItems({ total_videos: 9, public_videos: 5, hidden_videos: 2, deleted_videos: 1, rejected_videos: 1 }),
      ),
    ).toEqual(['9', '5', '2', '1', '1']);
  });

  it('advanced, and its empty data', () => {
    const items = advancedStatItems({
      top_creator: { user_email: 'farid@test.fr', video_count: 4 },
      top_video: { title: 'Beat dans le métro', views: 1 },
      total_reports: 6,
      public_videos: 8,
      deleted_videos: 2,
      avg_videos_per_day: 1.33,
    });
    expect(shown(items)).toEqual({
      'Meilleur créateur': 'farid@test.fr',
      'Vidéo la plus vue': 'Beat dans le métro',
      'Signalements au total': '6',
      'Vidéos publiques': '8',
      'Vidéos supprimées': '2',
      'Moyenne de vidéos par jour': '1,33',
    });
    expect(items.map((i) => i.detail)).toEqual(['4 vidéos', '1 vue', undefined, undefined, undefined, undefined]);
    const none = { top_creator: null, top_video: null, total_reports: 0, public_videos: 0, deleted_videos: 0 };
    expect(values(advancedStatItems({ ...none, avg_videos_per_day: 0 }))).toEqual(['N/A', 'N/A', '0', '0', '0', '0']);
    expect(values(advancedStatItems(null))).toEqual(['N/A', 'N/A', '—', '—', '—', '—']);
  });
});
