import type { ReadStore } from '@evo/infra';
import { VIDEOS, VISIBILITY_DELETED, isVisibleVideo, type VideoDoc } from '../videos/videos-projector';
import { COMMENTS, toCommentView, type CommentDoc, type CommentView } from './comments-projector';

/** Oldest first, each top-level comment followed by its replies (oldest first). */
export function threadComments(comments: readonly CommentDoc[]): CommentView[] {
  const sorted = [...comments].sort((a, b) => a.id - b.id);
  const replies = new Map<number, CommentDoc[]>();
  for (const c of sorted) {
    if (c.parent_id === null) continue;
    const list = replies.get(c.parent_id) ?? [];
    list.push(c);
    replies.set(c.parent_id, list);
  }
  const out: CommentView[] = [];
  for (const c of sorted) {
    if (c.parent_id !== null) continue;
    out.push(toCommentView(c));
    for (const r of replies.get(c.id) ?? []) out.push(toCommentView(r));
  }
  return out;
}

export function commentsQueries(read: ReadStore) {
  const comments = read.collection<CommentDoc>(COMMENTS);
  const videos = read.collection<VideoDoc>(VIDEOS);
  return {
    /**
     * The threaded comments of a video members can see (its owner also sees those of a video of
     * theirs that is hidden or rejected); null when there is no such video.
     */
    async ofVideo(videoId: number, viewerId?: string): Promise<CommentView[] | null> {
      const video = await videos.findOne({ _id: videoId }, { projection: { status: 1, processing: 1, user_id: 1 } });
      if (!video || video.status === VISIBILITY_DELETED) return null;
      if (!isVisibleVideo(video) && video.user_id !== viewerId) return null;
      return threadComments(await comments.find({ video_id: videoId }, { sort: { id: 1 } }));
    },
  };
}
