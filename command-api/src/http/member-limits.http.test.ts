import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { loadConfig, MemoryRateLimitStore, RedisRateLimitStore, createRateLimitStore } from '@evo/infra';
import { demoVideo, registerAndLogin, startTestServer, type Member, type TestServer } from '../testing/test-server';
import { slice } from '../messaging/test-helpers';
import { MEMBER_LIMIT_MESSAGES, MEMBER_WRITE_LIMITS, frenchWait, uploadBytesRule } from './member-limits';
import { VIDEO_ROUTE_MESSAGES } from '../videos/routes';

/**
 * The members' write limits (issue 29 item 5): comments, messages, uploads, reports and gift
 * sends answer a French 429 with Retry-After beyond them, and the refused writes change nothing;
 * a member's uploads are also limited in bytes per day.
 */
let server: TestServer;
let t: ReturnType<typeof slice>;
let owner: Member;
let videoId: number;
beforeAll(async () => {
  server = await startTestServer({ UPLOAD_MB_PER_DAY: '1' });
  t = slice(server);
  owner = await registerAndLogin(server.url);
  videoId = await t.firstVideoId(owner.client, owner.member.pseudo);
});
afterAll(() => server.stop());

const countEvents = async (type: string) => {
  let n = 0;
  for await (const batch of server.deps.events.readAll()) n += batch.filter((e) => e.type === type).length;
  return n;
};

/** `n` requests at once: how many answered each status, and one 429 answer */
async function burst(
  n: number,
  send: (i: number) => Promise<{ status: number; json: { error?: string }; headers: Headers }>,
) {
  const answers = await Promise.all(Array.from({ length: n }, (_, i) => send(i)));
  const byStatus = new Map<number, number>();
  for (const a of answers) byStatus.set(a.status, (byStatus.get(a.status) ?? 0) + 1);
  return { byStatus: Object.fromEntries(byStatus), refused: answers.find((a) => a.status === 429) };
}

const expectFrench429 = (
  refused: { json: { error?: string }; headers: Headers } | undefined,
  message: string,
  windowMs: number,
) => {
  expect(refused).toBeDefined();
  const seconds = Number(refused!.headers.get('retry-after'));
  expect(seconds).toBeGreaterThan(0);
  expect(seconds).toBeLessThanOrEqual(windowMs / 1000);
  expect(refused!.json.error).toMatch(new RegExp(`^${message} Réessaie dans \\d+ (s|min|h)\\.$`));
};

describe('per-member write limits', () => {
  it('takes 20 comments of a member in a minute, refuses the rest in French, and changes nothing for them', async () => {
    const fan = await registerAndLogin(server.url);
    const before = await countEvents('CommentPosted');
    const { byStatus, refused } = await burst(30, (i) =>
      fan.client.post(`/api/videos/${videoId}/comment`, { content: `Commentaire ${i}` }),
    );
    expect(byStatus).toEqual({ 201: 20, 429: 10 });
    expectFrench429(refused, MEMBER_LIMIT_MESSAGES.comment, 60_000);
    expect(await countEvents('CommentPosted')).toBe(before + 20);
    // another member is not concerned
    const other = await registerAndLogin(server.url);
    expect((await other.client.post(`/api/videos/${videoId}/comment`, { content: 'Moi aussi' })).status).toBe(201);
  });

  it('takes 40 private messages a minute, so a target does not pile up hundreds of unread', async () => {
    const [sender, target] = [await registerAndLogin(server.url), await registerAndLogin(server.url)];
    await t.follow(sender.member.email, target.member.email);
    const { byStatus, refused } = await burst(60, (i) =>
      sender.client.post('/api/messages', { receiverEmail: target.member.email, content: `Message ${i}` }),
    );
    expect(byStatus).toEqual({ 201: 40, 429: 20 });
    expectFrench429(refused, MEMBER_LIMIT_MESSAGES.message, 60_000);
  });

  it('takes 60 gift sends a minute', async () => {
    const [fan, creator] = [await registerAndLogin(server.url), await registerAndLogin(server.url)];
    expect((await fan.client.post('/api/coins/purchase', { email: fan.member.email, packId: 1 })).status).toBe(200);
    const { byStatus, refused } = await burst(70, () =>
      fan.client.post('/api/gifts/send', {
        sender_email: fan.member.email,
        receiver_pseudo: creator.member.pseudo,
        gift_id: 1,
      }),
    );
    expect(byStatus).toEqual({ 200: 60, 429: 10 });
    expectFrench429(refused, MEMBER_LIMIT_MESSAGES.gift, 60_000);
  });

  it.each([
    {
      write: 'report' as const,
      perHour: 20,
      refused: 'a report beyond 20 an hour, before anything is decided',
      event: 'VideoReported',
      send: (m: Member) => m.client.post(`/api/report/${videoId}`, { reason: 'Spam' }),
    },
    {
      write: 'upload' as const,
      perHour: 15,
      refused: 'an upload beyond 15 an hour before reading its file',
      event: 'VideoUploaded',
      send: async (m: Member) => {
        const form = new FormData();
        form.append('title', 'Une de trop');
        form.append('video', new Blob([new Uint8Array(await demoVideo())], { type: 'video/mp4' }), 'x.mp4');
        return m.client.post('/api/videos/upload', form);
      },
    },
  ])('refuses $refused', async ({ write, perHour, event, send }) => {
    const member = await registerAndLogin(server.url);
    const id = await t.userId(member.member.email);
    // the hour's allowance already used (reports: each on another video)
    for (let i = 0; i < perHour; i++) await server.deps.limits.take(MEMBER_WRITE_LIMITS[write][0], id);
    const before = await countEvents(event);
    const r = await send(member);
    expect(r.status).toBe(429);
    expectFrench429(r, MEMBER_LIMIT_MESSAGES[write], 3_600_000);
    expect(await countEvents(event)).toBe(before);
  });

  it('keeps a member’s uploads within UPLOAD_MB_PER_DAY: the one that passes it is refused and not kept', async () => {
    const creator = await registerAndLogin(server.url);
    const id = await t.userId(creator.member.email);
    const rule = uploadBytesRule(1);
    const video = await demoVideo();
    // the day's quota nearly spent: this file does not fit
    await server.deps.limits.take(rule, id, rule.limit - video.length + 1);
    const upload = async () => {
      const form = new FormData();
      form.append('title', 'Trop lourde pour aujourd’hui');
      form.append('video', new Blob([new Uint8Array(video)], { type: 'video/mp4' }), 'x.mp4');
      return creator.client.post('/api/videos/upload', form);
    };
    const before = await countEvents('VideoUploaded');
    const stored = async () => (await readdir(path.join(server.deps.uploads.localRoot!, 'videos'))).length;
    const filesBefore = await stored();
    const refused = await upload();
    expect(refused.status).toBe(429);
    expectFrench429(refused, VIDEO_ROUTE_MESSAGES.dailyQuota(1).replace(/[().]/g, '\\$&'), 86_400_000);
    expect(await countEvents('VideoUploaded')).toBe(before);
    // the file it streamed is removed with the answer
    await expect.poll(stored).toBe(filesBefore);
    // spent to the byte: refused before the file is read
    await server.deps.limits.take(rule, id, video.length - 1);
    expect((await upload()).status).toBe(429);
    expect(await countEvents('VideoUploaded')).toBe(before);
  });
});

describe('where the limits count', () => {
  it('in Redis when REDIS_URL is set (shared by every API replica), else in the process', async () => {
    const local = createRateLimitStore(loadConfig({}));
    expect(local).toBeInstanceOf(MemoryRateLimitStore);
    await local.close();
    const shared = createRateLimitStore(
      loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379', SESSION_SECRET: 'x'.repeat(20) }),
    );
    expect(shared).toBeInstanceOf(RedisRateLimitStore);
    await shared.close();
  });
  it('says how long to wait in French', () => {
    expect(frenchWait(1)).toBe('1 s');
    expect(frenchWait(42_000)).toBe('42 s');
    expect(frenchWait(7 * 60_000)).toBe('7 min');
    expect(frenchWait(5 * 3_600_000)).toBe('5 h');
  });
});
