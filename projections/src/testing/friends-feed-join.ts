import type { ReadStore } from '@evo/infra';
import { VIDEOS, VISIBLE_VIDEO, type VideoDoc } from '../videos/videos-projector';
import { FOLLOWING, type FollowingDoc } from '../social/follows-projector';
import type { Page } from '../social/queries';
import { chunks } from '../runtime/chunks';

/*
 * The friends feed as it was computed before the timeline read model: a query-time join of the
 * followees' videos. Kept as the oracle of the differential tests (the timeline-based feed must
 * answer exactly this, page by page), not used by the product.
 */

const FEED_SEEK_CHUNK = 128;
const FEED_SCAN_ABOVE = 256;
const DAY_MS = 86_400_000;
const FEED_SCAN_MAX = 3000;
const MAX_WINDOW_MS = 50 * 365 * DAY_MS;
const NEWEST = { created_at: -1, _id: 1 } as const;

const newestFirst = (a: VideoDoc, b: VideoDoc) =>
  a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : a.id - b.id;

/** The page of visible videos of whom `userId` follows, newest first, by the query-time join. */
export async function friendsFeedByJoin(read: ReadStore, userId: string, page: Page): Promise<VideoDoc[]> {
  const videos = read.collection<VideoDoc>(VIDEOS);
  const ids = [...((await read.collection<FollowingDoc>(FOLLOWING).findOne({ _id: userId }))?.ids ?? [])].reverse();
  if (ids.length === 0) return [];
  const skip = (page.page - 1) * page.limit;
  const needed = skip + page.limit;

  async function feedByScan(followees: ReadonlySet<string>): Promise<VideoDoc[] | null> {
    const batch = Math.max(200, needed * 4);
    const out: VideoDoc[] = [];
    for (let s = 0; s < FEED_SCAN_MAX; s += batch) {
      const docs = await videos.find(VISIBLE_VIDEO, { sort: NEWEST, skip: s, limit: batch });
      for (const v of docs) if (followees.has(v.user_id)) out.push(v);
      if (out.length >= needed || docs.length < batch) return out;
    }
    return null;
  }

  async function feedBySeek(): Promise<VideoDoc[]> {
    const newest = await videos.findOne(VISIBLE_VIDEO, { sort: NEWEST, projection: { created_at: 1 } });
    if (!newest) return [];
    const anchor = Date.parse(newest.created_at);
    const groups = chunks(ids, FEED_SEEK_CHUNK);
    let window = DAY_MS;
    let previous = -1;
    for (;;) {
      const bounded = window < MAX_WINDOW_MS;
      const since = bounded ? { created_at: { $gte: new Date(anchor - window).toISOString() } } : {};
      const parts = await Promise.all(
        groups.map((g) =>
          videos.find({ user_id: { $in: g }, ...VISIBLE_VIDEO, ...since }, { sort: NEWEST, limit: needed }),
        ),
      );
      const list = parts.flat();
      if (list.length >= needed || !bounded) return groups.length > 1 ? list.sort(newestFirst) : list;
      if (list.length === previous) window = MAX_WINDOW_MS;
      previous = list.length;
      window *= Math.min(64, Math.max(2, Math.ceil((needed / Math.max(1, list.length)) * 1.5)));
    }
  }

  const list = (ids.length > FEED_SCAN_ABOVE ? await feedByScan(new Set(ids)) : null) ?? (await feedBySeek());
  return list.slice(skip, needed);
}
