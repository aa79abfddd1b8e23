import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { errorMessage } from '../api/http';
import { useCurrentUser } from '../identity/sessionContext';
import { sameIdentity } from '../social/format';
import { useChoose, useConfirm } from '../shell/confirm';
import { useSocketRoom } from '../shell/socket';
import { useToast } from '../shell/toast';
import { copyText } from './clipboard';
import type { VideoCounters } from './live';
import { videoPath, type Video } from './types';
import { deleteVideo, recordView, reportVideo, setLike, toggleFavorite } from './videoApi';

/** Texts of the video actions: the cards use emoji, the single video page does not (the product error catalogue). */
export interface VideoActionTexts {
  favorited: string;
  reported: string;
  deleted: string;
  deleteConfirm: string;
}

export const CARD_TEXTS: VideoActionTexts = {
  favorited: '⭐ Ajouté aux favoris',
  reported: '🚩 Signalement envoyé',
  deleted: '✅ Vidéo supprimée',
  deleteConfirm: 'Supprimer cette vidéo ?',
};

export const PAGE_TEXTS: VideoActionTexts = {
  favorited: 'Ajouté aux favoris',
  reported: 'Signalement envoyé',
  deleted: 'Vidéo supprimée',
  deleteConfirm: 'Supprimer cette vidéo ?',
};

/** Profile page wording of the delete confirmation (the product validation rules). */
export const PROFILE_DELETE_CONFIRM = 'Voulez-vous vraiment supprimer cette vidéo ?';

export const LINK_COPIED = 'Lien copié !';
const COPY_FAILED = 'Impossible de copier le lien.';
const UNFAVORITED = 'Retiré des favoris';
const LIKE_FAILED = "Impossible d'enregistrer le j'aime.";
const FAVORITE_FAILED = "Impossible d'ajouter aux favoris.";
const REPORT_FAILED = "Impossible d'envoyer le signalement.";
const REPORT_QUESTION = 'Pourquoi signales-tu cette vidéo ? (facultatif)';
/** reasons offered when reporting; none chosen is allowed */
export const REPORT_REASONS = [
  'Contenu choquant ou violent',
  'Nudité ou contenu sexuel',
  'Harcèlement ou propos haineux',
  'Spam ou arnaque',
  'Fausses informations',
  "Atteinte aux droits d'auteur",
  'Autre',
] as const;
const DELETE_FAILED = 'Impossible de supprimer la vidéo.';
const LOGIN_NEEDED = 'Connecte-toi pour aimer une vidéo.';

export interface VideoActionsOptions {
  texts: VideoActionTexts;
  /** Delete path: DELETE /api/videos/:id (default) or /api/videos/delete/:id (profile). */
  deleteVia?: 'videos' | 'delete';
  /** Called after a confirmed, successful delete (the list reloads, the page navigates). */
  onDeleted?: (id: number) => void;
  /**
   * The display a view is counted for: one view each time it changes to a value other than null.
   * The vertical feed passes its display number while the video is the visible one, null otherwise.
   * Default: one view when the hook mounts (a card display).
   */
  viewKey?: string | number | null;
}

/**
 * State and actions of one displayed video: like (optimistic), live counters (the video's room's
 * pushes change the cache the video comes from: web/src/videos/live.ts), one view per display, share, favourite, report, delete (owner).
 * Mount it with `key={video.id}` when the video can change.
 */
export function useVideoActions(
  video: Video,
  { texts, deleteVia = 'videos', onDeleted, viewKey = 'mount' }: VideoActionsOptions,
) {
  const { user } = useCurrentUser();
  const toast = useToast();
  const confirm = useConfirm();
  const choose = useChoose();
  const client = useQueryClient();
  // what the video's answer says, until it changes (asked again, or a push: web/src/videos/live.ts)
  const [likes, setLikes] = useAnswered(video.likes_count);
  const [liked, setLiked] = useAnswered(video.liked_by_me ?? false);
  const [views] = useAnswered(video.views_count);
  const [favorited, setFavorited] = useAnswered(video.favorited_by_me ?? false);
  const [deleting, setDeleting] = useState(false);
  const likePending = useRef(false);
  const viewSent = useRef<string | number | null>(null);
  const email = user?.email ?? null;
  const isOwner = sameIdentity(email, video.user_email);

  // One view per display (the ref survives StrictMode's double effects).
  useEffect(() => {
    if (viewKey === null || viewSent.current === viewKey) return;
    viewSent.current = viewKey;
    // a video hidden by moderation is seen only by its author and administrators: no view counted;
    // a visitor's display is not counted either (views are members', one per display)
    if (video.status && video.status !== 'publique') return;
    if (!email) return;
    recordView(video.id, email);
  }, [video.id, video.status, email, viewKey]);

  // Counters and new comments of this video are pushed to its room while it is on screen.
  useSocketRoom('video:watch', 'video:unwatch', video.id);

  const toggleLike = useCallback(async () => {
    if (likePending.current) return;
    if (!email) {
      toast.error(LOGIN_NEEDED);
      return;
    }
    likePending.current = true;
    const next = !liked;
    setLiked(next);
    setLikes((count) => Math.max(0, count + (next ? 1 : -1)));
    try {
      const result = await setLike(video.id, next);
      if (typeof result.liked === 'boolean') setLiked(result.liked);
      if (typeof result.likes_count === 'number') setLikes(Math.max(0, result.likes_count));
      updateVideoCounters(client, video.id, {
        liked_by_me: result.liked,
        likes_count: Math.max(0, result.likes_count),
      });
    } catch (err) {
      setLiked(!next);
      setLikes((count) => Math.max(0, count + (next ? -1 : 1)));
      toast.error(errorMessage(err) ?? LIKE_FAILED);
    } finally {
      likePending.current = false;
    }
  }, [client, email, liked, setLiked, setLikes, toast, video.id]);

  const share = useCallback(async () => {
    const link = `${window.location.origin}${videoPath(video.id)}`;
    if (await copyText(link)) toast.success(LINK_COPIED);
    else toast.error(COPY_FAILED, { detail: link });
  }, [toast, video.id]);

  const favorite = useCallback(async () => {
    try {
      const result = await toggleFavorite(video.id);
      const now = typeof result.favorited === 'boolean' ? result.favorited : true;
      setFavorited(now);
      updateVideoCounters(client, video.id, { favorited_by_me: now });
      if (now) toast.success(texts.favorited);
      else toast.info(UNFAVORITED);
    } catch (err) {
      toast.error(FAVORITE_FAILED, { detail: errorMessage(err) });
    }
  }, [client, setFavorited, texts.favorited, toast, video.id]);

  const report = useCallback(async () => {
    // the reason is optional: sent without one, administrators read 'Non spécifié'
    const answer = await choose(REPORT_QUESTION, REPORT_REASONS, { confirmLabel: 'Signaler' });
    if (!answer) return;
    try {
      await reportVideo(video.id, answer.choice ?? undefined);
      toast.success(texts.reported);
    } catch (err) {
      toast.error(REPORT_FAILED, { detail: errorMessage(err) });
    }
  }, [choose, texts.reported, toast, video.id]);

  const remove = useCallback(async () => {
    if (!isOwner || deleting) return;
    const ok = await confirm(texts.deleteConfirm, { confirmLabel: 'Supprimer', danger: true });
    if (!ok) return;
    setDeleting(true);
    try {
      await deleteVideo(video.id, deleteVia);
      toast.success(texts.deleted);
      onDeleted?.(video.id);
    } catch (err) {
      console.warn('Suppression de la vidéo impossible', err);
      toast.error(DELETE_FAILED, { detail: errorMessage(err) });
    } finally {
      setDeleting(false);
    }
  }, [confirm, deleteVia, deleting, isOwner, onDeleted, texts.deleteConfirm, texts.deleted, toast, video.id]);

  return { likes, liked, views, favorited, isOwner, deleting, toggleLike, share, favorite, report, remove };
}

export type VideoActions = ReturnType<typeof useVideoActions>;

/** The member's own like or favourite, written where the cache holds the video (its code loads after the first paint). */
function updateVideoCounters(client: QueryClient, id: number, counters: VideoCounters): void {
  void import('./live').then((live) => live.updateVideoCounters(client, id, counters));
}

/** A state that starts as `answered` and starts again from it each time it changes. */
function useAnswered<T>(answered: T) {
  const [state, setState] = useState(answered);
  const [from, setFrom] = useState(answered);
  if (!Object.is(from, answered)) {
    setFrom(answered);
    setState(answered);
  }
  return [state, setState] as const;
}
