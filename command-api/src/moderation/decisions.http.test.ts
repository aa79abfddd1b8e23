import { describe, it, expect, beforeAll } from 'vitest';
import {
  APPEAL_MESSAGES,
  RESTRICTION_MESSAGES,
  SANCTION_MESSAGES,
  restrictionDecider,
  restrictionsStream,
  videoDecider,
  videoStream,
  appealDeadline,
} from '@evo/domain';
import { DEMO_ADMIN_EMAIL, handleCommand } from '@evo/infra';
import type { AppealsQueueAnswer, ActiveRestrictionsAnswer, MyModerationAnswer } from '@evo/contracts';
import { AUTH_MESSAGES } from '../http/session';
import { Client, demoVideo, type Member } from '../testing/test-server';
import { serverFixture } from '../testing/server-fixture';

const t = serverFixture({ admin: true, members: 3 });
const [author, other, talker] = t.members;
let adminId: string;

beforeAll(async () => {
  adminId = await t.userId(DEMO_ADMIN_EMAIL);
  // talker may write to author (messages need a follow)
  expect(
    (await talker.client.post('/api/users/follows/follow', { followingPseudo: author.member.pseudo })).status,
  ).toBe(200);
});

const mine = async (m: Member) => (await m.client.get('/api/moderation/mine')).json as unknown as MyModerationAnswer;
const queue = async () => ((await t.admin.get('/api/admin/appeals')).json as unknown as AppealsQueueAnswer).appeals;
const activeRestrictions = async () =>
  ((await t.admin.get('/api/admin/restrictions')).json as unknown as ActiveRestrictionsAnswer).restrictions;
const audit = async () =>
  (
    (await t.admin.get('/api/admin/audit?limit=100')).json as {
      items: Array<{ action: string; admin_pseudo: string; details: string }>;
    }
  ).items;
const comment = (m: Member, videoId: number, content = 'Bonjour') =>
  m.client.post(`/api/videos/${videoId}/comment`, { content });

describe('appeals against a decision on a video', () => {
  it('the author gets the decision with its reason, contests it once; the administrator reverses it from the queue', async () => {
    const videoId = await t.firstVideoId(author.client, author.member.pseudo);
    const hide = await t.admin.put(`/api/videos/${videoId}/visibility`, {
      status: 'masquée',
      reason: SANCTION_MESSAGES[0],
    });
    expect(hide.status).toBe(200);
    await t.settle();

    // the decision, its reason and the notification
    const decision = (await mine(author)).decisions.find((d) => d.video_id === videoId)!;
    expect(decision).toMatchObject({
      id: `video-${videoId}-1`,
      kind: 'video',
      action: 'masquée',
      reason: SANCTION_MESSAGES[0],
      in_force: true,
      can_appeal: true,
      appeal: null,
    });
    expect(decision.appealable_until).toBe(appealDeadline(decision.decided_at).toISOString());
    const notes = (await author.client.get('/api/notifications')).json as unknown as Array<{
      message: string;
      type: string;
    }>;
    expect(notes.some((n) => n.type === 'report_update' && n.message === SANCTION_MESSAGES[0])).toBe(true);

    // someone else's decision, an empty text: refused, nothing appended
    await t.expectRefusals([
      [
        () => other.client.post(`/api/moderation/decisions/${decision.id}/appeal`, { text: 'Pas la mienne' }),
        403,
        APPEAL_MESSAGES.notYours,
      ],
      [
        () => author.client.post(`/api/moderation/decisions/${decision.id}/appeal`, { text: '   ' }),
        400,
        APPEAL_MESSAGES.textRequired,
      ],
      [
        () => author.client.post('/api/moderation/decisions/nimporte-quoi/appeal', { text: 'x' }),
        404,
        APPEAL_MESSAGES.decisionNotFound,
      ],
      [
        () => new Client(t.server.url).post(`/api/moderation/decisions/${decision.id}/appeal`, { text: 'x' }),
        401,
        AUTH_MESSAGES.unauthenticated,
      ],
    ]);

    const appeal = await author.client.post(`/api/moderation/decisions/${decision.id}/appeal`, {
      text: 'Ma vidéo ne montre rien de choquant.',
    });
    expect(appeal.status).toBe(201);
    expect(appeal.json.message).toBe(APPEAL_MESSAGES.appealSent);
    // a second appeal
    await t.expectRefused(
      () => author.client.post(`/api/moderation/decisions/${decision.id}/appeal`, { text: 'Encore' }),
      409,
      APPEAL_MESSAGES.alreadyAppealed,
    );
    await t.settle();

    // the queue: the video, the decision, who took it, the appeal
    const item = (await queue()).find((a) => a.id === decision.id)!;
    expect(item).toMatchObject({
      video_id: videoId,
      action: 'masquée',
      reason: SANCTION_MESSAGES[0],
      decided_by: 'admin',
      subject_pseudo: author.member.pseudo,
      appeal: { text: 'Ma vidéo ne montre rien de choquant.', status: 'en_attente', answer: null },
    });
    // members may not see or answer it
    await t.expectRefusals([
      [() => author.client.get('/api/admin/appeals'), 403, AUTH_MESSAGES.adminOnly],
      [
        () => author.client.put(`/api/admin/appeals/${decision.id}`, { outcome: 'annulée', answer: 'moi' }),
        403,
        AUTH_MESSAGES.adminOnly,
      ],
      [
        () => t.admin.put(`/api/admin/appeals/${decision.id}`, { outcome: 'annulée', answer: '' }),
        400,
        APPEAL_MESSAGES.answerRequired,
      ],
    ]);

    const answer = await t.admin.put(`/api/admin/appeals/${decision.id}`, {
      outcome: 'annulée',
      answer: 'Après vérification, la vidéo respecte les règles.',
    });
    expect(answer.status).toBe(200);
    await t.settle();
    // the video is back to its former visibility, for everyone
    expect((await other.client.get(`/api/videos/${videoId}`)).status).toBe(200);
    const after = (await mine(author)).decisions.find((d) => d.id === decision.id)!;
    expect(after).toMatchObject({
      in_force: false,
      can_appeal: false,
      appeal: { status: 'annulée', answer: 'Après vérification, la vidéo respecte les règles.' },
    });
    expect((await queue()).some((a) => a.id === decision.id)).toBe(false);
    const answeredNote = (await author.client.get('/api/notifications')).json as unknown as Array<{
      message: string;
    }>;
    expect(
      answeredNote.some(
        (n) => n.message === APPEAL_MESSAGES.decided('annulée', 'Après vérification, la vidéo respecte les règles.'),
      ),
    ).toBe(true);
    // answered once
    await t.expectRefused(
      () => t.admin.put(`/api/admin/appeals/${decision.id}`, { outcome: 'maintenue', answer: 'Non' }),
      409,
      APPEAL_MESSAGES.alreadyAnswered,
    );
    // decisions and appeals are in the audit, with their actor
    const lines = await audit();
    expect(lines.find((l) => l.action === 'Contestation déposée')).toMatchObject({
      admin_pseudo: author.member.pseudo,
    });
    expect(lines.find((l) => l.action === 'Contestation traitée')).toMatchObject({
      admin_pseudo: 'admin',
      details: 'Décision annulée — Réponse : Après vérification, la vidéo respecte les règles.',
    });
    expect(
      lines.some(
        (l) =>
          l.action === 'Visibilité modifiée' && l.details.includes(`Décision n° 1 — Motif : ${SANCTION_MESSAGES[0]}`),
      ),
    ).toBe(true);
  });

  it('a decision since reversed cannot be contested; the queue is oldest first; a kept decision stays', async () => {
    const form = async (title: string) => {
      const f = new FormData();
      f.append('title', title);
      f.append('video', new Blob([new Uint8Array(await demoVideo())], { type: 'video/mp4' }), 'x.mp4');
      const r = await other.client.post('/api/videos/upload', f);
      expect(r.status).toBe(201);
      return (r.json.video as { id: number }).id;
    };
    const [v1, v2, v3] = [await form('Une'), await form('Deux'), await form('Trois')];
    for (const v of [v1, v2, v3])
      expect((await t.admin.put(`/api/videos/${v}/visibility`, { status: 'supprimée' })).status).toBe(200);
    expect((await t.admin.put(`/api/videos/${v1}/visibility`, { status: 'publique' })).status).toBe(200);
    await t.settle();
    const decisions = (await mine(other)).decisions;
    // the reason SPEC gives a deletion when the administrator chose none
    expect(decisions.find((d) => d.video_id === v2)!.reason).toBe(SANCTION_MESSAGES[1]);
    expect(decisions.find((d) => d.video_id === v1)).toMatchObject({ in_force: false, can_appeal: false });
    await t.expectRefused(
      () => other.client.post(`/api/moderation/decisions/video-${v1}-1/appeal`, { text: 'Pourquoi ?' }),
      409,
      APPEAL_MESSAGES.noLongerInForce,
    );
    expect((await other.client.post(`/api/moderation/decisions/video-${v3}-1/appeal`, { text: 'Trois' })).status).toBe(
      201,
    );
    expect((await other.client.post(`/api/moderation/decisions/video-${v2}-1/appeal`, { text: 'Deux' })).status).toBe(
      201,
    );
    await t.settle();
    const ids = (await queue()).map((a) => a.id);
    expect(ids.indexOf(`video-${v3}-1`)).toBeLessThan(ids.indexOf(`video-${v2}-1`));
    expect(
      (await t.admin.put(`/api/admin/appeals/video-${v3}-1`, { outcome: 'maintenue', answer: 'Contenu interdit.' }))
        .status,
    ).toBe(200);
    await t.settle();
    expect((await author.client.get(`/api/videos/${v3}`)).status).toBe(404);
    expect((await mine(other)).decisions.find((d) => d.video_id === v3)!.appeal).toMatchObject({
      status: 'maintenue',
      answer: 'Contenu interdit.',
    });
  });

  it('after six months, an appeal is refused and nothing changes', async () => {
    const videoId = await t.firstVideoId(talker.client, talker.member.pseudo);
    const longAgo = new Date(Date.now() - 200 * 86_400_000);
    await handleCommand(
      t.server.deps.events,
      videoStream(videoId),
      videoDecider,
      {
        type: 'SetVideoVisibility',
        videoId,
        visibility: 'masquée',
        requesterId: adminId,
        requesterIsAdmin: true,
        now: longAgo,
      },
      { userId: adminId, correlationId: 'old-decision', now: longAgo },
    );
    await t.settle();
    expect((await mine(talker)).decisions.find((d) => d.video_id === videoId)).toMatchObject({ can_appeal: false });
    await t.expectRefused(
      () => talker.client.post(`/api/moderation/decisions/video-${videoId}-1/appeal`, { text: 'Trop tard ?' }),
      409,
      APPEAL_MESSAGES.deadlinePassed(appealDeadline(longAgo.toISOString())),
    );
  });
});

describe('restrictions', () => {
  it('bad input is refused in French and changes nothing', async () => {
    const base = { email: talker.member.email, scopes: ['comment'], reason: 'Spam' };
    await t.expectRefusals([
      [
        () =>
          t.admin.post('/api/admin/restrictions', { ...base, ends_at: new Date(Date.now() - 60_000).toISOString() }),
        400,
        RESTRICTION_MESSAGES.endInPast,
      ],
      [
        () => t.admin.post('/api/admin/restrictions', { ...base, duration_hours: -2 }),
        400,
        RESTRICTION_MESSAGES.negativeDuration,
      ],
      [() => t.admin.post('/api/admin/restrictions', { ...base, scopes: [] }), 400, RESTRICTION_MESSAGES.noScope],
      [
        () => t.admin.post('/api/admin/restrictions', { ...base, reason: ' ' }),
        400,
        RESTRICTION_MESSAGES.reasonRequired,
      ],
      [
        () => t.admin.post('/api/admin/restrictions', { ...base, email: 'personne@example.com' }),
        404,
        RESTRICTION_MESSAGES.memberNotFound,
      ],
      [() => author.client.post('/api/admin/restrictions', base), 403, AUTH_MESSAGES.adminOnly],
      [() => t.admin.delete(`/api/admin/restrictions/restriction-x-1`), 404, RESTRICTION_MESSAGES.restrictionNotFound],
    ]);
  });

  it('a restricted member is told before trying, refused with a French 403, then lifted', async () => {
    const videoId = await t.firstVideoId(author.client, author.member.pseudo);
    const made = await t.admin.post('/api/admin/restrictions', {
      email: talker.member.email,
      scopes: ['comment', 'message'],
      duration_hours: 48,
      reason: 'Insultes répétées',
    });
    expect(made.status).toBe(201);
    const id = made.json.id as string;
    await t.settle();

    const me = await mine(talker);
    expect(me.restrictions).toEqual([
      { id, scopes: ['comment', 'message'], ends_at: expect.any(String), reason: 'Insultes répétées' },
    ]);
    expect(me.blocked.comment).toMatch(
      /^Restriction en cours : tu ne peux pas commenter jusqu'au .+\. Motif : Insultes répétées$/,
    );
    expect(me.blocked.message).toMatch(/^Restriction en cours : tu ne peux pas écrire des messages privés jusqu'au /);
    expect(me.blocked.upload).toBeUndefined();
    // the server refuses with the same words, and nothing is appended
    await t.expectRefusals([
      [() => comment(talker, videoId), 403, me.blocked.comment],
      [
        () => talker.client.post('/api/messages', { receiverEmail: author.member.email, content: 'Salut' }),
        403,
        me.blocked.message,
      ],
    ]);
    // the back-office lists it
    expect((await activeRestrictions()).find((r) => r.id === id)).toMatchObject({
      subject_pseudo: talker.member.pseudo,
      scopes: ['comment', 'message'],
      reason: 'Insultes répétées',
      decided_by: 'admin',
    });

    expect((await t.admin.delete(`/api/admin/restrictions/${id}`)).status).toBe(200);
    await t.settle();
    expect((await activeRestrictions()).some((r) => r.id === id)).toBe(false);
    expect((await mine(talker)).blocked).toEqual({});
    expect((await comment(talker, videoId)).status).toBe(201);
    await t.expectRefusals([
      [() => t.admin.delete(`/api/admin/restrictions/${id}`), 409, RESTRICTION_MESSAGES.alreadyOver],
      // its appeal: over
      [
        () => talker.client.post(`/api/moderation/decisions/${id}/appeal`, { text: 'x' }),
        409,
        APPEAL_MESSAGES.restrictionOver,
      ],
    ]);
  });

  it('an upload restriction is refused before the file is read', async () => {
    const made = await t.admin.post('/api/admin/restrictions', {
      email: author.member.email,
      scopes: 'upload',
      reason: 'Vidéos volées',
    });
    expect(made.status).toBe(201);
    const f = new FormData();
    f.append('title', 'Refusée');
    f.append('video', new Blob([new Uint8Array(await demoVideo())], { type: 'video/mp4' }), 'x.mp4');
    await t.expectRefused(
      () => author.client.post('/api/videos/upload', f),
      403,
      "Restriction en cours : tu ne peux pas publier des vidéos jusqu'à nouvel ordre. Motif : Vidéos volées",
    );
    // appealed like a decision, reversed: lifted
    const id = made.json.id as string;
    expect((await other.client.post(`/api/moderation/decisions/${id}/appeal`, { text: 'x' })).status).toBe(403);
    expect(
      (await author.client.post(`/api/moderation/decisions/${id}/appeal`, { text: 'Ce sont les miennes.' })).status,
    ).toBe(201);
    await t.settle();
    expect((await queue()).find((a) => a.id === id)).toMatchObject({ kind: 'restriction', scopes: ['upload'] });
    expect(
      (await t.admin.put(`/api/admin/appeals/${id}`, { outcome: 'annulée', answer: 'Vérifié, désolé.' })).status,
    ).toBe(200);
    await t.settle();
    expect((await mine(author)).blocked).toEqual({});
    expect((await activeRestrictions()).some((r) => r.id === id)).toBe(false);
  });

  it('a restriction ends by itself at its end: nothing has to run', async () => {
    const talkerId = await t.userId(talker.member.email);
    const threeHoursAgo = new Date(Date.now() - 3 * 3_600_000);
    await handleCommand(
      t.server.deps.events,
      restrictionsStream(talkerId),
      restrictionDecider,
      {
        type: 'RestrictMember',
        userId: talkerId,
        requesterId: adminId,
        requesterIsAdmin: true,
        scopes: ['comment'],
        durationHours: 1,
        reason: 'Une heure',
        now: threeHoursAgo,
      },
      { userId: adminId, correlationId: 'ended', now: threeHoursAgo },
    );
    await t.settle();
    const videoId = await t.firstVideoId(author.client, author.member.pseudo);
    expect((await comment(talker, videoId, 'De retour')).status).toBe(201);
    expect((await mine(talker)).restrictions).toEqual([]);
    expect((await activeRestrictions()).some((r) => r.subject_pseudo === talker.member.pseudo)).toBe(false);
  });
});
