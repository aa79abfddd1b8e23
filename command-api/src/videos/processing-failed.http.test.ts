import { describe, expect, it } from 'vitest';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { VIDEO_MESSAGES } from '@evo/domain';
import { systemContext } from '@evo/infra';
import { uploadVideo } from '../identity/commands';
import { findMemberBy } from '../identity/members';
import { ASSETS, type Member } from '../testing/test-server';
import { serverFixture } from '../testing/server-fixture';
import { VIDEO_ROUTE_MESSAGES } from './routes';

/**
 * A video whose processing job fails at every try (issue 29 item 6: during a full disk it stayed
 * "en_traitement" until a restart): it is recorded as failed, its author sees it with the reason,
 * and may have it processed again or delete it.
 */
const t = serverFixture({ members: 2 });
const [author, other] = t.members;

/** A video of the author whose file is not where its event says: every try of its job fails. */
async function videoWithoutItsFile(name: string) {
  const owner = (await findMemberBy(t.server.deps.events, 'email', author.member.email))!.userId;
  const filePath = `/uploads/videos/${name}`;
  const { videoId } = await uploadVideo(
    t.server.deps.events,
    t.server.deps.ids,
    owner,
    { title: 'Vidéo malchanceuse', description: '', filePath, mimeType: 'video/mp4', sizeBytes: 1000 },
    { ...systemContext(), userId: owner },
  );
  // the job's tries, quickly (the product gives it about a minute)
  await t.server.deps.jobs.add(
    'video.process',
    { videoId, filePath },
    { jobId: `video-${videoId}`, attempts: 2, backoffMs: 10 },
  );
  await t.server.settle(30_000);
  await t.server.deps.progress.waitFor((await t.server.deps.events.lastPosition())!, 10_000);
  return { videoId, name };
}

const videoOf = async (m: Member, id: number) => (await m.client.get(`/api/videos/${id}`)).json;

describe('a video whose processing failed at every try', () => {
  it('is shown to its author as failed, with the reason, then processed again at their request', async () => {
    const { videoId, name } = await videoWithoutItsFile('4a1b9d3e-0000-4000-8000-000000000001.mp4');
    expect(await videoOf(author, videoId)).toMatchObject({
      processing: 'échouée',
      reject_reason: VIDEO_MESSAGES.processingFailed,
    });
    const own = (await author.client.get(`/api/users/profile/${author.member.pseudo}`)).json.videos as Array<{
      id: number;
      processing: string;
    }>;
    expect(own.find((v) => v.id === videoId)?.processing).toBe('échouée');

    // another member may not retry it; a video that did not fail has nothing to retry
    const refused = await other.client.post(`/api/videos/${videoId}/processing/retry`);
    expect(refused.status).toBe(403);
    expect(refused.json.error).toBe(VIDEO_MESSAGES.notOwnerRetry);

    // the file is back (space freed, a store that came back): the author retries
    await copyFile(path.join(ASSETS, 'demo/demo-3.mp4'), path.join(t.server.deps.uploads.localRoot!, 'videos', name));
    const retried = await author.client.post(`/api/videos/${videoId}/processing/retry`);
    expect(retried.status, retried.text).toBe(200);
    expect(retried.json.message).toBe(VIDEO_ROUTE_MESSAGES.processingRetried);
    await t.server.settle(60_000);
    await t.server.deps.progress.waitFor((await t.server.deps.events.lastPosition())!, 10_000);
    expect(await videoOf(author, videoId)).toMatchObject({ processing: 'prête', reject_reason: null });
    const again = await author.client.post(`/api/videos/${videoId}/processing/retry`);
    expect(again.status).toBe(409);
    expect(again.json.error).toBe(VIDEO_MESSAGES.notFailed);
  }, 120_000);

  it('may be deleted by its author instead', async () => {
    const { videoId } = await videoWithoutItsFile('4a1b9d3e-0000-4000-8000-000000000002.mp4');
    expect((await videoOf(author, videoId)).processing).toBe('échouée');
    expect((await author.client.delete(`/api/videos/${videoId}`)).status).toBe(200);
    expect((await author.client.get(`/api/videos/${videoId}`)).status).toBe(404);
    expect((await author.client.post(`/api/videos/${videoId}/processing/retry`)).status).toBe(404);
  }, 120_000);
});
