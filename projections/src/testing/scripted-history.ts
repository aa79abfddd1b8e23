import { randomUUID } from 'node:crypto';
import { reservationDecider, reservationStream, userDecider, userStream, videoDecider, videoStream } from '@evo/domain';
import { handleCommand, nextId, type CommandContext, type EventStore } from '@evo/infra';

const ctx = (userId?: string, at = new Date('2026-03-01T10:00:00Z')): CommandContext => ({ userId, correlationId: randomUUID(), now: at });

/**
 * A small but varied history written through the real deciders and command loop: members,
 * claims, logins, admin grants and revocations, uploads, processing and rejections.
 */
export async function writeScriptedHistory(events: EventStore, members = 5, prefix = 'membre'): Promise<{ userIds: string[]; videoIds: number[] }> {
  const userIds: string[] = [];
  const videoIds: number[] = [];
  for (let i = 0; i < members; i++) {
    const userId = randomUUID();
    const at = new Date(Date.UTC(2026, 2, 1 + i, 9));
    for (const [kind, value] of [['pseudo', `${prefix}${i}`], ['email', `${prefix}${i}@test.fr`]] as const) {
      await handleCommand(events, reservationStream(kind, value), reservationDecider, { type: 'Reserve', kind, value, userId, now: at, ownerRegistered: false }, ctx(userId, at));
    }
    await handleCommand(
      events,
      userStream(userId),
      userDecider,
      { type: 'RegisterUser', userId, email: `${prefix}${i}@test.fr`, pseudo: `${prefix[0].toUpperCase()}${prefix.slice(1)}${i}`, passwordHash: 'h', bio: `Bio ${i} é`, profilePicture: 'default.png' },
      ctx(userId, at),
    );
    userIds.push(userId);
    for (let v = 0; v <= i % 3; v++) {
      const videoId = await nextId(events, 'video', ctx(userId, at));
      const data = { videoId, ownerId: userId, title: `Vidéo ${i}.${v}`, description: '', filePath: `/uploads/videos/${videoId}.mp4`, mimeType: 'video/mp4', sizeBytes: 1000 };
      await handleCommand(events, videoStream(videoId), videoDecider, { type: 'UploadVideo', ...data }, ctx(userId, new Date(at.getTime() + v * 60_000)));
      videoIds.push(videoId);
      const outcome =
        v === 1
          ? ({ type: 'RejectVideo', videoId, reason: 'Illisible' } as const)
          : ({ type: 'RecordProcessing', videoId, durationSeconds: 4 + v, sizeBytes: 1000, codec: 'h264', width: 360, height: 640, posterPath: `/uploads/posters/${videoId}.jpg` } as const);
      await handleCommand(events, videoStream(videoId), videoDecider, outcome, ctx());
    }
    for (let l = 0; l < i; l++) await handleCommand(events, userStream(userId), userDecider, { type: 'RecordLogin', userId }, ctx(userId, new Date(at.getTime() + l * 3_600_000)));
  }
  await handleCommand(events, userStream(userIds[0]), userDecider, { type: 'GrantAdmin', userId: userIds[0] }, ctx());
  await handleCommand(events, userStream(userIds[1]), userDecider, { type: 'GrantAdmin', userId: userIds[1] }, ctx());
  await handleCommand(events, userStream(userIds[1]), userDecider, { type: 'RevokeAdmin', userId: userIds[1] }, ctx());
  return { userIds, videoIds };
}
