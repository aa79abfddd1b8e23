import { SEARCH_LIMITS, searchKey } from '@evo/domain';
import type { SearchAnswer } from '@evo/contracts';
import type { ReadStore } from '@evo/infra';
import { PROCESSING, VISIBILITY_HIDDEN, VISIBILITY_PUBLIC } from '../videos/videos-projector';
import { SEARCH_MEMBERS, SEARCH_VIDEOS, type SearchMemberDoc, type SearchVideoDoc } from './search-projector';

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function searchQueries(read: ReadStore) {
  const members = read.collection<SearchMemberDoc>(SEARCH_MEMBERS);
  const videos = read.collection<SearchVideoDoc>(SEARCH_VIDEOS);
  return {
    /**
     * Members whose pseudo contains `query` (those starting with it first), and videos whose title
     * contains it, newest first: public ones not rejected by processing, and the searcher's own
     * hidden ones (as their profile shows them). Accents and case aside (`searchKey`).
     */
    async search(query: string, viewerId: string): Promise<SearchAnswer> {
      const key = searchKey(query);
      if (key.length < SEARCH_LIMITS.queryMin) return { query, members: [], videos: [] };
      const needle = escapeRegex(key);
      const limit = SEARCH_LIMITS.results;
      const [starting, containing, found] = await Promise.all([
        members.find({ pseudo_key: { $regex: `^${needle}` } }, { sort: { pseudo_key: 1 }, limit }),
        members.find({ pseudo_key: { $regex: needle } }, { sort: { pseudo_key: 1 }, limit: limit * 2 }),
        videos.find(
          {
            title_key: { $regex: needle },
            $or: [
              { status: VISIBILITY_PUBLIC, processing: { $ne: PROCESSING.rejected } },
              { owner_id: viewerId, status: { $in: [VISIBILITY_PUBLIC, VISIBILITY_HIDDEN] } },
            ],
          },
          { sort: { created_at: -1, _id: -1 }, limit },
        ),
      ]);
      const seen = new Set<string>();
      const memberList = [...starting, ...containing]
        .filter((m) => !seen.has(m._id) && seen.add(m._id))
        .slice(0, limit);
      return {
        query,
        members: memberList.map((m) => ({ pseudo: m.pseudo, profile_picture: m.profile_picture, bio: m.bio })),
        videos: found.map((v) => ({
          id: v.id,
          title: v.title,
          user_pseudo: v.user_pseudo,
          poster: v.poster,
          status: v.status,
        })),
      };
    },
  };
}
