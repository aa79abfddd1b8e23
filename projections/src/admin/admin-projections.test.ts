import { describe, expect, it } from 'vitest';
import { SANCTION_MESSAGES } from '@evo/domain';
import { SqliteReadStore, SqliteEventStore } from '@evo/infra';
import { allProjectors } from '../registry';
import { rebuildReadModels } from '../runtime/rebuild';
import { writeScriptedHistory } from '../testing/scripted-history';
import { NOTIFICATIONS, type NotificationDoc } from '../notifications/notifications-projector';
import { moderationQueries } from '../moderation/queries';
import { statsQueries } from '../stats/queries';
import { VIDEOS, isVisibleVideo, type VideoDoc } from '../videos/videos-projector';
import { adminQueries } from './queries';
import { closedAfterEach } from '../testing/test-lifecycle';

const open = closedAfterEach();

async function built(members = 6) {
  const events = new SqliteEventStore(':memory:');
  open.push(events);
  const history = await writeScriptedHistory(events, members);
  const read = SqliteReadStore.temporary();
  await rebuildReadModels({ events, read, projectors: allProjectors });
  return { events, read, ...history };
}

describe('administration read models', () => {
  it('log every administrator action with who did it, newest first', async () => {
    const { read } = await built();
    const { items, total } = await adminQueries(read).audit({ page: 1, limit: 100 });
    expect(total).toBe(items.length);
    const actions = items.map((i) => i.action);
    expect(actions.filter((a) => a === 'Signalement mis à jour')).toHaveLength(5);
    expect(actions.filter((a) => a === 'Visibilité modifiée')).toHaveLength(4);
    // the administrator deleted member 4's video; owners' own deletions are not listed
    expect(actions.filter((a) => a === 'Vidéo supprimée')).toHaveLength(1);
    expect(actions.filter((a) => a.startsWith('Cadeau'))).toEqual([
      'Cadeau supprimé',
      'Cadeau ajouté',
      'Cadeau modifié',
      'Cadeau ajouté',
    ]);
    // the grant and revocation of the scripted history without an actor (system) are not listed
    expect(actions.filter((a) => a.startsWith('Rôle'))).toEqual([
      'Rôle administrateur retiré',
      'Rôle administrateur accordé',
    ]);
    expect(actions[0]).toBe('Reconstruction des projections lancée');
    // the administrator's actions, and the members' appeals against decisions (issue 32), each with its actor
    expect(new Set(items.filter((i) => i.action !== 'Contestation déposée').map((i) => i.admin_email))).toEqual(
      new Set(['membre0@test.fr']),
    );
    expect(items.filter((i) => i.action === 'Contestation déposée').map((i) => [i.admin_email, i.target])).toEqual([
      ['membre2@test.fr', 'restriction n° 1'],
      ['membre3@test.fr', expect.stringMatching(/^décision n° 1 sur la vidéo #\d+$/)],
    ]);
    expect(items.filter((i) => i.action === 'Contestation traitée').map((i) => i.details)).toEqual([
      'Décision annulée — Réponse : Vérifié, désolé.',
      'Décision maintenue — Réponse : Contenu interdit.',
    ]);
    expect(items.filter((i) => i.action === 'Membre restreint').map((i) => i.target)).toEqual([
      'membre2@test.fr',
      'membre1@test.fr',
    ]);
    expect(items.filter((i) => i.action === 'Restriction levée').map((i) => i.details)).toEqual([
      'Restriction n° 1 (contestation acceptée)',
      'Restriction n° 1',
    ]);
    expect(items.find((i) => i.action.startsWith('Rôle'))?.target).toBe('membre2@test.fr');
    expect(items.find((i) => i.action === 'Cadeau modifié')).toMatchObject({
      target: expect.stringMatching(/^cadeau #\d+$/),
      details: '🌠 Étoile filante — 3 coins — /uploads/gifts/etoile.png',
    });
    const page2 = await adminQueries(read).audit({ page: 2, limit: 5 });
    expect(page2.items).toEqual(items.slice(5, 10));
    // (a stable sort: the events of one append share their time, e.g. an appeal's answer and the lifting it causes)
    expect([...items].sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)).map((i) => i.id)).toEqual(
      items.map((i) => i.id),
    );
  });

  it('show report decisions, notify the author of a sanction and the reporter of a closing', async () => {
    const { read, userIds } = await built();
    const reports = await moderationQueries(read).reports();
    expect(reports.map((r) => r.id)).toEqual([...reports.map((r) => r.id)].sort((a, b) => b - a));
    const [again, ...older] = reports;
    expect(again).toMatchObject({
      status: 'en_attente',
      signalant: 'Membre1',
      auteur: 'Membre2',
      reason: 'Encore choquant',
      admin_response: null,
      video_status: 'publique',
    });
    const byReporter = (pseudo: string) => older.filter((r) => r.signalant === pseudo);
    expect(byReporter('Membre0')[0]).toMatchObject({
      status: 'ferme',
      admin_response: SANCTION_MESSAGES[0],
      auteur: 'Membre1',
    });
    expect(byReporter('Membre1')[0]).toMatchObject({ status: 'ferme', admin_response: null });
    expect(byReporter('Membre2')[0]).toMatchObject({
      status: 'en_attente',
      admin_response: null,
      video_status: 'masquée',
    });
    expect(byReporter('Membre3')[0]).toMatchObject({ status: 'en_attente', video_status: 'supprimée' });
    const notes = await read
      .collection<NotificationDoc>(NOTIFICATIONS)
      .find({ type: 'report_update' }, { sort: { id: 1 } });
    const of = (userId: string) => notes.filter((x) => x.user_id === userId).map((x) => x.message);
    expect(of(userIds[1])).toEqual([
      SANCTION_MESSAGES[0],
      'Ton signalement a été traité.',
      // restricted, then lifted (issue 32)
      "Restriction : tu ne peux plus commenter, écrire des messages privés jusqu'au 2 juin 2026 à 10:15. Motif : Propos insultants",
      'Ta restriction a été levée.',
    ]);
    // member 0's video was hidden by an administrator: a decision, told with its reason (issue 32)
    expect(of(userIds[0])).toEqual(['Ton signalement a été traité.', SANCTION_MESSAGES[0]]);
    // member 3 got a sanction, then it was withdrawn; then their video was hidden: a decision with its reason
    // and their appeal was answered: the decision kept (issue 32)
    expect(of(userIds[3])).toEqual([
      SANCTION_MESSAGES[1],
      SANCTION_MESSAGES[0],
      'Ta contestation a été examinée : la décision est maintenue. Réponse : Contenu interdit.',
    ]);
    expect(of(userIds[2]).slice(-2)).toEqual([
      "Restriction : tu ne peux plus publier des vidéos jusqu'à nouvel ordre. Motif : Propos insultants",
      'Ta contestation a été acceptée : la décision est annulée. Réponse : Vérifié, désolé.',
    ]);
    expect(notes.every((x) => x.sender_email === '')).toBe(true);
    // about a video, they name it; about a restriction, none
    expect(notes.every((x) => x.video_id > 0 !== /[Rr]estriction|décision est annulée/.test(x.message))).toBe(true);
  });

  it('keep visibility, counters and statistics in step', async () => {
    const { read } = await built();
    const videos = await read.collection<VideoDoc>(VIDEOS).find({});
    const stats = await statsQueries(read, new Date('2026-07-01T00:00:00Z')).videos();
    expect(stats.total_videos).toBe(videos.length);
    expect(stats.public_videos).toBe(videos.filter(isVisibleVideo).length);
    expect(stats.hidden_videos).toBe(videos.filter((v) => v.status === 'masquée').length);
    expect(stats.deleted_videos).toBe(videos.filter((v) => v.status === 'supprimée').length);
    expect(stats.hidden_videos).toBe(1);
    const coins = await statsQueries(read, new Date()).coins();
    expect(coins.coins_bought + coins.coins_added).toBe(
      coins.coins_in_balances +
        coins.coins_in_unclaimed_gifts +
        coins.coins_in_transit +
        coins.coins_withdrawn +
        coins.fees,
    );
    expect(coins).toMatchObject({
      coins_bought: 110,
      coins_added: 40,
      coins_in_transit: 3,
      fees: 10,
      coins_withdrawn: 7,
      purchases: 1,
    });
  });

  it('list members by email or pseudo, paginated, with counters and balance', async () => {
    const { read } = await built();
    const q = adminQueries(read);
    const all = await q.users('', { page: 1, limit: 100 });
    expect(all.total).toBe(6);
    expect(all.items.map((u) => u.email)).toEqual([
      'membre5@test.fr',
      'membre4@test.fr',
      'membre3@test.fr',
      'membre2@test.fr',
      'membre1@test.fr',
      'membre0@test.fr',
    ]);
    const one = await q.users('MBRE1', { page: 1, limit: 20 });
    expect(one.items).toEqual([
      expect.objectContaining({
        email: 'membre1@test.fr',
        pseudo: 'Membre1',
        role: 'user',
        is_admin: false,
        // 110 bought + 40 added − 100 − 3 sent (the 7 withdrawn were the receiver's earnings)
        balance: 47,
        last_login_at: expect.any(String),
      }),
    ]);
    expect((await q.users('membre0', { page: 1, limit: 20 })).items[0]).toMatchObject({
      is_admin: true,
      role: 'admin',
      last_login_at: null,
    });
    expect(await q.users('.*', { page: 1, limit: 20 })).toMatchObject({ items: [], total: 0 });
    const page = await q.users('test.fr', { page: 2, limit: 4 });
    expect(page).toMatchObject({ total: 6, page: 2, limit: 4 });
    expect(page.items.map((u) => u.email)).toEqual(['membre1@test.fr', 'membre0@test.fr']);
  });
});
