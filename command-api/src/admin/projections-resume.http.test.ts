import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODERATION_MESSAGES } from '@evo/domain';
import { allProjectors } from '@evo/projections';
import { fragileCommentsProjector } from '@evo/projections/testing/fragile-projector';
import { registerAndLogin, startTestServer, type Client, type Member, type TestServer } from '../testing/test-server';
import { slice } from '../messaging/test-helpers';
import { eventually, loginAdmin } from './test-helpers';

let server: TestServer;
let admin: Client;
let member: Member;
let broken = true;

beforeAll(async () => {
  server = await startTestServer({}, undefined, undefined, {
    projectors: [...allProjectors, fragileCommentsProjector('boum', () => broken)],
  });
  admin = await loginAdmin(server);
  member = await registerAndLogin(server.url);
});
afterAll(() => server.stop());

type Health = { caught_up: boolean; store_error: string | null; stopped: Array<{ name: string; type: string }> };

describe('a projection stopped on an event, from the back-office', () => {
  it('shows where it stopped, refuses to resume it while it still fails, resumes it once fixed', async () => {
    const video = await slice(server).firstVideoId(member.client, member.member.pseudo);
    expect((await admin.get('/api/admin/projections/status')).json).toMatchObject({ stopped: [], store_error: null });
    // nothing stopped: nothing to resume
    const none = await admin.post('/api/admin/projections/fragile/resume');
    expect(none.status).toBe(404);
    expect(none.json).toEqual({ error: MODERATION_MESSAGES.projectionNotStopped });

    expect((await member.client.post(`/api/videos/${video}/comment`, { content: 'boum !' })).status).toBe(201);
    const status = async () => (await admin.get('/api/admin/projections/status')).json as Health;
    await eventually(async () => (await status()).stopped.length > 0, 30_000, 'the fragile projection stopped');
    const health = await status();
    expect(health.stopped).toEqual([
      expect.objectContaining({ name: 'fragile', type: 'CommentPosted', error: expect.stringContaining('illisible') }),
    ]);
    // the others go on: a later comment is read at once
    expect((await member.client.post(`/api/videos/${video}/comment`, { content: 'après' })).status).toBe(201);
    const comments = await member.client.get(`/api/videos/${video}/comments`);
    expect(JSON.stringify(comments.json)).toContain('après');

    // only administrators see and resume
    expect((await member.client.get('/api/admin/projections/status')).status).toBe(403);
    expect((await member.client.post('/api/admin/projections/fragile/resume')).status).toBe(403);

    // still failing: refused in French, still stopped
    const again = await admin.post('/api/admin/projections/fragile/resume');
    expect(again.status).toBe(409);
    expect((again.json as { error: string }).error).toMatch(/^La projection « fragile » échoue encore : /);
    expect(((await admin.get('/api/admin/projections/status')).json as Health).stopped).toHaveLength(1);

    // the cause fixed: resumed, caught up with the others
    broken = false;
    const resumed = await admin.post('/api/admin/projections/fragile/resume');
    expect(resumed.status).toBe(200);
    expect(resumed.json).toEqual({ message: MODERATION_MESSAGES.projectionResumed('fragile') });
    expect((await admin.get('/api/admin/projections/status')).json).toMatchObject({ stopped: [] });
    const fragile = await server.deps.read.collection('fragile').findOne({ _id: 'comments' });
    expect(fragile).toMatchObject({ n: 2 });
  });
});
