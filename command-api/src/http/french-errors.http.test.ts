import { describe, it, expect, beforeAll } from 'vitest';
import { createApp } from '../app';
import { listRoutes, type RouteInfo } from '../testing/routes';
import { Client } from '../testing/test-server';
import { serverFixture } from '../testing/server-fixture';

const t = serverFixture({ admin: true, members: 1 });
const [member] = t.members;
let routes: RouteInfo[];
let videoId: number;

beforeAll(async () => {
  videoId = await t.firstVideoId(member.client, member.member.pseudo);
  // logout last: it ends the session every other call needs
  routes = listRoutes(createApp(t.server.deps)).sort(
    (a, b) => Number(a.path.endsWith('/logout')) - Number(b.path.endsWith('/logout')),
  );
});

/**
 * Path parameters that exist, so the call reaches its body: the member's video for the video
 * writes (never deleted: DELETE calls get an id nothing has), else an id nothing has.
 */
function fill(r: RouteInfo): string {
  const onVideo = r.method !== 'DELETE' && /^\/api\/(videos|report|favorite)\/:id/.test(r.path);
  return r.path.replace(/:(\w+)/g, (_m, name: string) => {
    if (name === 'id' && onVideo) return String(videoId);
    if (/email/i.test(name)) return encodeURIComponent(name === 'email' ? member.member.email : 'admin@evo.local');
    if (/pseudo/i.test(name)) return encodeURIComponent(member.member.pseudo);
    return '999999';
  });
}

/** Words of zod's default (English) messages. */
const ENGLISH =
  /\b(expected|received|required|invalid|must|should|string|number|array|object|input|characters?|contain|greater|less|than)\b/i;

const FIELDS = [
  'email',
  'password',
  'pseudo',
  'bio',
  'video_title',
  'title',
  'description',
  'content',
  'amount',
  'packId',
  'pack_id',
  'giftId',
  'gift_id',
  'giftIds',
  'receiver_email',
  'receiverEmail',
  'status',
  'admin_response',
  'name',
  'emoji',
  'price',
  'reason',
  'videoId',
  'video_id',
  'targetEmail',
  'followerEmail',
  'followeeEmail',
  'to',
  'email_to',
];
const BODIES: Array<[string, unknown]> = [
  ['an array', []],
  ['a string', 'texte'],
  ['null', null],
  ['an empty object', {}],
  ['fields of the wrong type', Object.fromEntries(FIELDS.map((f, i) => [f, i % 2 ? [[]] : { x: 1 }]))],
];
const BAD_QUERY = '?page=abc&limit=-5&asOf=hier&status=nimporte&q=&since=x&page=2';

async function expectFrench(client: Client, r: RouteInfo, body: unknown, label: string) {
  const path = fill(r);
  const answer =
    r.method === 'GET' || r.method === 'HEAD'
      ? await client.request(r.method, path + BAD_QUERY)
      : await client.request(r.method, path, JSON.stringify(body), { 'content-type': 'application/json' });
  const where = `${r.method} ${r.path} with ${label}: ${answer.status} ${answer.text.slice(0, 200)}`;
  expect(answer.status, where).toBeLessThan(500);
  if (answer.status >= 400) {
    expect(typeof answer.json?.error, where).toBe('string');
    expect(answer.json.error, where).not.toMatch(ENGLISH);
  }
}

describe('every validation failure answers in French', () => {
  it('lists the routes it tests', () => {
    expect(routes.length).toBeGreaterThan(60);
    expect(routes).toContainEqual({ method: 'POST', path: '/api/auth/login' });
  });

  it('answers French to an array, a string, null and wrong types on every route (administrator)', async () => {
    for (const r of routes.filter((x) => !x.path.endsWith('/logout')))
      for (const [label, body] of BODIES) await expectFrench(t.admin, r, body, label);
  }, 180_000);

  it('answers French on every route to a member and to a visitor', async () => {
    const visitor = new Client(t.server.url);
    for (const r of routes)
      for (const [label, body] of BODIES) {
        await expectFrench(visitor, r, body, `${label} (visitor)`);
        if (!r.path.endsWith('/logout')) await expectFrench(member.client, r, body, `${label} (member)`);
      }
  }, 180_000);

  it('names the problem with the JSON body of a login in French', async () => {
    const r = await new Client(t.server.url).request('POST', '/api/auth/login', '[]', {
      'content-type': 'application/json',
    });
    expect(r.status).toBe(400);
    expect(r.json.error).toBe('Le corps de la requête doit être un objet JSON.');
  });
});
