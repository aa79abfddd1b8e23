import { useCallback, useEffect, useState } from 'react';
import { useSocketEvent } from '../shell/socket';
import { useLoad } from '../api/useLoad';
import { fetchComments } from './videoApi';

/**
 * Comments of one video, loaded on demand (the product states and transitions, "Comment panel": opening
 * loads them, sending reloads them), with the count kept live by 'comment:new'
 * (pushed to the video's room, see useSocketRoom). Load failures are logged only (the product error catalogue).
 */
export function useComments(videoId: number, initialCount: number) {
  const [wanted, setWanted] = useState(false);
  const [pushedCount, setPushedCount] = useState<number | null>(null);
  const loaded = useLoad(wanted ? `comments:${videoId}` : null, (signal) => fetchComments(videoId, signal));
  const { reload, error, setData } = loaded;

  useEffect(() => {
    if (error) console.warn('Chargement des commentaires impossible', error);
  }, [error]);

  useSocketEvent('comment:new', ({ videoId: pushedFor, comments_count, comment }) => {
    if (pushedFor !== videoId) return;
    setPushedCount(Math.max(0, comments_count));
    setData((list) => (list.some((c) => c.id === comment.id) ? list : [...list, comment]));
  });

  const load = useCallback(() => {
    if (wanted) reload();
    else setWanted(true);
  }, [reload, wanted]);

  const listed = loaded.data?.length;
  const count = pushedCount !== null ? Math.max(pushedCount, listed ?? 0) : (listed ?? initialCount);
  return { ...loaded, load, count };
}

export type CommentsState = ReturnType<typeof useComments>;
