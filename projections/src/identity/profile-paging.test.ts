import { describe, expect, it } from 'vitest';
import { SqliteReadStore } from '@evo/infra';
import { USERS } from './users-projector';
import { identityQueries } from './queries';
import { PROCESSING, VIDEOS, VISIBILITY_HIDDEN, VISIBILITY_PUBLIC, videosProjector } from '../videos/videos-projector';

/** A creator with `count` videos, one a day; every seventh hidden by moderation. */
async function creatorWith(count: number): Promise<SqliteReadStore> {
  const read = SqliteReadStore.temporary();
  for (const spec of videosProjector.indexes?.[VIDEOS] ?? []) await read.collection(VIDEOS).createIndex(spec);
  await read
    .collection(USERS)
    .insertOne({ _id: 'star', pseudo: 'Star', pseudo_lc: 'star', email: 'star@test.fr', bio: '', profile_picture: '' });
  for (let id = 1; id <= count; id++) {
    await read.collection(VIDEOS).insertOne({
      _id: id,
      id,
      user_id: 'star',
      title: `v${id}`,
      // two videos share each day: the order of a tie is the id's, newest first
      created_at: new Date(Date.UTC(2026, 0, 1) + Math.floor(id / 2) * 86_400_000).toISOString(),
      status: id % 7 === 0 ? VISIBILITY_HIDDEN : VISIBILITY_PUBLIC,
      processing: PROCESSING.ready,
    });
  }
  return read;
}

describe('a profile, page by page', () => {
  it('gives every visible video once, newest first, and reads about a page of documents per page', async () => {
    const read = await creatorWith(2_000);
    const q = identityQueries(read);
    const seen: number[] = [];
    const examined: number[] = [];
    for (let page: number | null = 1; page !== null;) {
      const before = read.counters.docsExamined;
      const answer = await q.profile('star', 'someone-else', { page, limit: 24 });
      examined.push(read.counters.docsExamined - before);
      seen.push(...(answer?.videos ?? []).map((v) => v.id));
      page = answer?.next_page ?? null;
    }
    const visible = Array.from({ length: 2_000 }, (_, i) => 2_000 - i).filter((id) => id % 7 !== 0);
    expect(seen).toEqual(visible);
    // the first page does not walk the creator's 2,000 videos (a page skips the ones before it)
    expect(examined[0]).toBeLessThanOrEqual(30);
  });
});
