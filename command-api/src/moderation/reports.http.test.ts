import { describe, it, expect, beforeAll, afterEach } from 'vitest';
import type { Socket } from 'socket.io-client';
import { MODERATION_MESSAGES, SANCTION_MESSAGES, VIDEO_MESSAGES } from '@evo/domain';
import { DEMO_ADMIN_EMAIL } from '@evo/infra';
import { AUTH_MESSAGES } from '../http/session';
import { serverFixture } from '../testing/server-fixture';
import { SOCIAL_ROUTE_MESSAGES } from '../social/http';
import { collect, eventually, online } from '../admin/test-helpers';

const t = serverFixture({ admin: true, members: 4 });
const [author, reporter, watcher, stranger] = t.members;

beforeAll(async () => {
  const f = await watcher.client.post('/api/users/follows/follow', { followingPseudo: author.member.pseudo });
  expect(f.status).toBe(200);
});

const sockets: Socket[] = [];
afterEach(() => {
  while (sockets.length) sockets.pop()!.disconnect();
});

type Note = { notification: { type: string; message: string; video_id: number; sender_email: string } };
type ReportRow = {
  id: number;
  video_id: number;
  status: string;
  video_status: string | null;
  signalant: string;
  admin_response: string | null;
};

/** What members see of the author's video, and what the counters say. */
async function seenByMembers(videoId: number) {
  const feed = (await watcher.client.get(`/api/videos/friends-feed/${watcher.member.email}`)).json as unknown as Array<{
    id: number;
  }>;
  const suggestions = (await stranger.client.get('/api/users/with-videos?limit=50')).json as unknown as Array<{
    pseudo: string;
    videos: Array<{ id: number }>;
  }>;
  const profile = (await watcher.client.get(`/api/users/profile/${author.member.pseudo}`)).json as {
    videos: Array<{ id: number }>;
  };
  const friends = (await watcher.client.get(`/api/users/friends/${watcher.member.email}`)).json as unknown as Array<{
    pseudo: string;
    videos_count: number;
    likes: number;
  }>;
  const stats = (await watcher.client.get(`/api/users/stats/${author.member.email}`)).json as { total_likes: number };
  const single = await watcher.client.get(`/api/videos/${videoId}`);
  const entry = friends.find((f) => f.pseudo === author.member.pseudo)!;
  return {
    inFeed: feed.some((v) => v.id === videoId),
    inSuggestions: suggestions.some((s) => s.pseudo === author.member.pseudo && s.videos.some((v) => v.id === videoId)),
    inProfile: profile.videos.some((v) => v.id === videoId),
    videosCount: entry.videos_count,
    likes: entry.likes,
    totalLikes: stats.total_likes,
    single: single.status,
  };
}

describe('the report workflow, end to end', () => {
  it('a member reports, an administrator handles it, the author is told live, the video is hidden then public again', async () => {
    const videoId = await t.firstVideoId(author.client, author.member.pseudo);
    expect((await watcher.client.post(`/api/videos/${videoId}/like`)).status).toBe(200);
    expect((await reporter.client.post(`/api/report/${videoId}`)).status).toBe(201);
    await t.settle();

    const before = await seenByMembers(videoId);
    expect(before).toEqual({
      inFeed: true,
      inSuggestions: true,
      inProfile: true,
      videosCount: 1,
      likes: 1,
      totalLikes: 1,
      single: 200,
    });

    const list = (await t.admin.get('/api/admin/reports')).json as unknown as ReportRow[];
    const report = list.find((r) => r.video_id === videoId)!;
    expect(report).toEqual({
      id: expect.any(Number),
      video_id: videoId,
      video_title: 'Ma première vidéo',
      video_status: 'publique',
      status: 'en_attente',
      created_at: expect.any(String),
      signalant: reporter.member.pseudo,
      auteur: author.member.pseudo,
      reason: 'Non spécifié',
      admin_response: null,
    });

    const authorNotes = collect<Note>(await online(t.server, author.client, sockets), 'notification:new');
    const reporterNotes = collect<Note>(await online(t.server, reporter.client, sockets), 'notification:new');
    const adminPushes = collect<{ id: number; status: string }>(
      await online(t.server, t.admin, sockets),
      'report:updated',
    );

    // en_attente → en_cours (no message), the same again changes nothing
    const inProgress = await t.admin.put(`/api/admin/reports/${report.id}`, { status: 'en_cours', admin_response: '' });
    expect(inProgress.status).toBe(200);
    expect(inProgress.json).toEqual({ message: 'Réponse envoyée ✅', report: { ...report, status: 'en_cours' } });
    const before2 = await t.lastPosition();
    expect(
      (await t.admin.put(`/api/admin/reports/${report.id}`, { status: 'en_cours', admin_response: null })).status,
    ).toBe(200);
    expect(await t.lastPosition()).toBe(before2);

    // refusals append nothing
    const path = `/api/admin/reports/${report.id}`;
    await t.expectRefusals([
      [() => t.admin.put(path, { status: 'fermé', admin_response: null }), 400, MODERATION_MESSAGES.badStatus],
      [() => t.admin.put(path, { admin_response: null }), 400, MODERATION_MESSAGES.badStatus],
      [
        () => t.admin.put(path, { status: 'ferme', admin_response: 'Vous êtes banni' }),
        400,
        MODERATION_MESSAGES.unknownSanction,
      ],
      [() => t.admin.put(path, { status: 'ferme', admin_response: 42 }), 400, MODERATION_MESSAGES.unknownSanction],
      [() => t.admin.put(path, '"ferme"'), 400, 'Corps de requête JSON invalide.'],
      [() => t.admin.put(path, [{ status: 'ferme' }]), 400, MODERATION_MESSAGES.badStatus],
      [() => t.admin.put(path, '{pas du json'), 400],
      [
        () => t.admin.put('/api/admin/reports/999999', { status: 'ferme', admin_response: null }),
        404,
        MODERATION_MESSAGES.reportNotFound,
      ],
      [
        () => t.admin.put('/api/admin/reports/abc', { status: 'ferme', admin_response: null }),
        400,
        MODERATION_MESSAGES.badReportId,
      ],
      [
        () => t.admin.put('/api/admin/reports/0', { status: 'ferme', admin_response: null }),
        400,
        MODERATION_MESSAGES.badReportId,
      ],
      [() => reporter.client.put(path, { status: 'ferme', admin_response: null }), 403, AUTH_MESSAGES.adminOnly],
    ]);

    // closed with a sanction: the author hears it, the reporter hears that it was handled
    const [sanction] = SANCTION_MESSAGES;
    const closed = await t.admin.put(path, { status: 'ferme', admin_response: sanction });
    expect(closed.json).toEqual({
      message: 'Réponse envoyée ✅',
      report: { ...report, status: 'ferme', admin_response: sanction },
    });
    await eventually(() => authorNotes.length > 0 && reporterNotes.length > 0, 5000, 'report_update pushes');
    expect(authorNotes.map((n) => n.notification)).toEqual([
      expect.objectContaining({ type: 'report_update', message: sanction, video_id: videoId, sender_email: '' }),
    ]);
    expect(reporterNotes.map((n) => n.notification)).toEqual([
      expect.objectContaining({ type: 'report_update', message: 'Ton signalement a été traité.', video_id: videoId }),
    ]);
    await eventually(() => adminPushes.length >= 2, 5000, 'report:updated pushes');
    expect(adminPushes.map((p) => [p.id, p.status])).toEqual([
      [report.id, 'en_cours'],
      [report.id, 'ferme'],
    ]);
    const listed = (await author.client.get('/api/notifications')).json as unknown as Array<{
      id: number;
      type: string;
      message: string;
    }>;
    expect(listed[0]).toMatchObject({ type: 'report_update', message: sanction });
    // the closing notified the author and the reporter (one id: the event's position), nobody else
    expect((await author.client.put(`/api/notifications/${listed[0].id}/read`)).status).toBe(200);
    expect((await reporter.client.put(`/api/notifications/${listed[0].id}/read`)).status).toBe(200);
    await t.expectRefused(() => watcher.client.put(`/api/notifications/${listed[0].id}/read`), 403);

    // the report is closed: the reporter may report the video again
    const again = await reporter.client.post(`/api/report/${videoId}`, { reason: 'Toujours choquant' });
    expect(again.status).toBe(201);
    await t.expectRefused(() => reporter.client.post(`/api/report/${videoId}`), 409, 'Tu as déjà signalé cette vidéo.');

    // hidden: gone for members (feeds, suggestions, profile, counters, the video itself), not for administrators
    const hidden = await t.admin.put(`/api/videos/${videoId}/visibility`, { status: 'masquée' });
    expect(hidden.json).toEqual({ message: 'Vidéo mise à jour : masquée' });
    await t.settle();
    expect(await seenByMembers(videoId)).toEqual({
      inFeed: false,
      inSuggestions: false,
      inProfile: false,
      videosCount: 0,
      likes: 0,
      totalLikes: 0,
      single: 404,
    });
    expect((await watcher.client.get(`/api/videos/${videoId}`)).json).toEqual({
      error: SOCIAL_ROUTE_MESSAGES.videoUnavailable,
    });
    // its author (and administrators) still get it, with its status and the sanction message
    const asAuthor = await author.client.get(`/api/videos/${videoId}`);
    expect(asAuthor.status).toBe(200);
    expect(asAuthor.json).toMatchObject({ id: videoId, status: 'masquée', moderation_message: sanction });
    const asAdmin = await t.admin.get(`/api/videos/${videoId}`);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.json).toMatchObject({
      id: videoId,
      status: 'masquée',
      likes_count: 1,
      moderation_message: sanction,
    });
    const ownProfile = (await author.client.get(`/api/users/profile/${author.member.pseudo}`)).json as {
      videos: Array<{ id: number; status: string; moderation_message?: string | null }>;
    };
    expect(ownProfile.videos.find((v) => v.id === videoId)).toMatchObject({
      status: 'masquée',
      moderation_message: sanction,
    });
    const profileForAdmin = (await t.admin.get(`/api/users/profile/${author.member.pseudo}`)).json as {
      videos: Array<{ id: number; status: string; moderation_message?: string | null }>;
    };
    expect(profileForAdmin.videos.find((v) => v.id === videoId)).toMatchObject({
      status: 'masquée',
      moderation_message: sanction,
    });
    // nobody else learns the sanction: the single video is 404 for other members (above), not in their lists
    expect(JSON.stringify((await watcher.client.get(`/api/users/profile/${author.member.pseudo}`)).json)).not.toContain(
      sanction,
    );
    await t.expectRefusals([
      [() => watcher.client.post(`/api/videos/${videoId}/like`), 404, VIDEO_MESSAGES.notFound],
      [() => stranger.client.post(`/api/report/${videoId}`), 404, VIDEO_MESSAGES.notFound],
    ]);
    const reports = (await t.admin.get('/api/admin/reports')).json as unknown as ReportRow[];
    expect(reports.filter((r) => r.video_id === videoId).map((r) => [r.status, r.video_status])).toEqual([
      ['en_attente', 'masquée'],
      ['ferme', 'masquée'],
    ]);

    // deleted (without accents), then public again: everything is back, counters included
    expect((await t.admin.put(`/api/videos/${videoId}/visibility`, { status: 'supprimee' })).json).toEqual({
      message: 'Vidéo mise à jour : supprimée',
    });
    // deleted: its author is told it is unavailable like everyone else
    await t.settle();
    expect((await author.client.get(`/api/videos/${videoId}`)).status).toBe(404);
    expect(
      (
        (await author.client.get(`/api/users/profile/${author.member.pseudo}`)).json as {
          videos: Array<{ id: number }>;
        }
      ).videos.map((v) => v.id),
    ).not.toContain(videoId);
    expect((await t.admin.put(`/api/videos/${videoId}/visibility`, { status: 'publique' })).json).toEqual({
      message: 'Vidéo mise à jour : publique',
    });
    await t.settle();
    expect(await seenByMembers(videoId)).toEqual(before);
    expect((await watcher.client.get(`/api/videos/${videoId}`)).json).toMatchObject({
      id: videoId,
      status: 'publique',
      likes_count: 1,
      liked_by_me: true,
    });

    // and the administrator's actions are in the audit log, newest first
    const audit = (await t.admin.get('/api/admin/audit?limit=5')).json as {
      items: Array<{ action: string; target: string; details: string; admin_email: string }>;
    };
    expect(audit.items.slice(0, 4).map((i) => [i.action, i.target, i.details])).toEqual([
      ['Visibilité modifiée', `vidéo #${videoId}`, 'Visibilité : publique'],
      // hiding and deleting are decisions (issue 32): numbered, with the reason the author was given
      [
        'Visibilité modifiée',
        `vidéo #${videoId}`,
        `Visibilité : supprimée — Décision n° 2 — Motif : ${SANCTION_MESSAGES[1]}`,
      ],
      [
        'Visibilité modifiée',
        `vidéo #${videoId}`,
        `Visibilité : masquée — Décision n° 1 — Motif : ${SANCTION_MESSAGES[0]}`,
      ],
      [
        'Signalement mis à jour',
        `signalement #${report.id} (vidéo #${videoId})`,
        `Statut : Traitée — Réponse : ${sanction}`,
      ],
    ]);
    expect(new Set(audit.items.map((i) => i.admin_email))).toEqual(new Set([DEMO_ADMIN_EMAIL]));
  });

  it('refuses bad visibility requests and appends nothing', async () => {
    const videoId = await t.firstVideoId(stranger.client, stranger.member.pseudo);
    const path = `/api/videos/${videoId}/visibility`;
    await t.expectRefusals([
      [() => t.admin.put(path, { status: 'cachée' }), 400, MODERATION_MESSAGES.badVisibility],
      [() => t.admin.put(path, {}), 400, MODERATION_MESSAGES.badVisibility],
      [() => t.admin.put(path, { status: ['publique'] }), 400, MODERATION_MESSAGES.badVisibility],
      [() => t.admin.put('/api/videos/999999/visibility', { status: 'masquée' }), 404, VIDEO_MESSAGES.notFound],
      [() => t.admin.put('/api/videos/abc/visibility', { status: 'masquée' }), 400, SOCIAL_ROUTE_MESSAGES.badVideoId],
      [() => stranger.client.put(path, { status: 'masquée' }), 403, AUTH_MESSAGES.adminOnly],
    ]);
    // the visibility it already has: 200, nothing appended
    const before = await t.lastPosition();
    expect((await t.admin.put(path, { status: 'publique' })).json).toEqual({ message: 'Vidéo mise à jour : publique' });
    expect(await t.lastPosition()).toBe(before);
  });
});
