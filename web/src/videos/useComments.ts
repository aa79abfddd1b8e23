import { useCallback, useEffect, useState } from 'react';
import { conversationRoutes } from '@evo/contracts';
import { useRouteQuery } from '../api/queries';

/**
 * Comments of one video, asked on demand (the product states and transitions, "Comment panel": opening
 * asks them, sending asks them again), from the cache, where 'comment:new' (pushed to the video's room,
 * see useSocketRoom) adds them and sets the video's count (web/src/videos/live.ts). `count` is the video's
 * comment count as its card or page holds it from the cache. Load failures are logged only (the
 * product error catalogue).
 */
export function useComments(videoId: number, count: number) {
  const [wanted, setWanted] = useState(false);
  // the count the card was shown with: another one since was pushed (or answered anew)
  const [shownWith] = useState(count);
  const query = useRouteQuery(conversationRoutes.comments, { id: videoId }, { enabled: wanted });
  const { error, refetch } = query;

  useEffect(() => {
    if (error) console.warn('Chargement des commentaires impossible', error);
  }, [error]);

  const load = useCallback(() => {
    if (wanted) void refetch();
    else setWanted(true);
  }, [refetch, wanted]);

  const data = query.data?.items;
  const listed = data?.length;
  const pushed = count !== shownWith ? count : null;
  const shown = pushed !== null ? Math.max(pushed, listed ?? 0) : (listed ?? count);
  return { data, error, loading: query.isFetching, load, count: shown };
}

export type CommentsState = ReturnType<typeof useComments>;
