import { Router, type Response } from 'express';
import type { FavoriteAnswer, LikeAnswer, VideoCard, VideoUploadedAnswer, ViewerVideo } from '@evo/contracts';
import { z } from 'zod';
import { descriptionField, videoTitleField } from '@evo/domain';
import { childLogger, maxPosition } from '@evo/infra';
import { eraseVideoFiles, videoFilePath } from './video-files';
import { VISIBILITY_HIDDEN, latestSanctions, socialQueries } from '@evo/projections';
import type { AppDeps } from '../deps';
import { HttpError, route } from '../http/errors';
import { currentUserId, requireAuth } from '../http/session';
import { answerMessage, answerWrite } from '../http/read-your-writes';
import { contextOf } from '../http/context';
import { UPLOAD_MESSAGES, firstFile } from '../uploads/upload-store';
import { uploadVideo } from '../identity/commands';
import { assertNotRestricted } from '../moderation/decision-commands';
import { deleteVideo, recordView, setLike, toggleFavorite } from '../social/commands';
import { actingMember, sessionUser } from '../http/actor';
import { SOCIAL_ROUTE_MESSAGES as M, VideoIdParam, actorEmailField, pageOf, videoIdField } from '../social/http';
import { enqueueVideoProcessing, retryVideoProcessing } from './processing';
import { bodyOf, parseInput } from '../http/request';
import { TooManyError, memberLimit, setRetryAfter, uploadBytesRule } from '../http/member-limits';

const log = childLogger('videos');

export const VIDEO_ROUTE_MESSAGES = {
  uploaded: 'Vidéo envoyée avec succès !',
  processingRetried: 'Traitement relancé : la vidéo sera prête dans quelques instants.',
  dailyQuota: (mb: number) =>
    `Quota de vidéos du jour atteint (${new Intl.NumberFormat('fr-FR').format(mb)} Mo par jour).`,
} as const;

const UploadBody = z.object({ title: videoTitleField, description: descriptionField });
const ViewBody = z.object({ videoId: videoIdField, userEmail: actorEmailField });

/** A video as a visitor gets it: the author named by pseudo only. */
export const withoutEmails = <V extends { user_email: string; email: string; owner_email: string }>(video: V): V => ({
  ...video,
  user_email: '',
  email: '',
  owner_email: '',
});

/** how long a like waits for the read models to include it before answering its count */
const COUNT_WAIT_MS = 2000;

/**
 * Videos: upload, one video, deletion, views, likes and favourites (the product API calls,
 * "Videos"; comments, the friends feed and reports have their own routers). Every command loads
 * `video-<id>` to check that the video exists and is visible, never the read models.
 */
export function videosRouter(deps: AppDeps): Router {
  const { events, ids, read, sessions, uploads, jobs, progress } = deps;
  const q = socialQueries(read);
  const r = Router();

  const uploadBytes = uploadBytesRule(deps.config.UPLOAD_MB_PER_DAY);
  const quotaReached = (retryAfterMs: number, res: Response) => {
    setRetryAfter(res, retryAfterMs);
    return new TooManyError(VIDEO_ROUTE_MESSAGES.dailyQuota(deps.config.UPLOAD_MB_PER_DAY), retryAfterMs);
  };
  r.post(
    '/videos/upload',
    requireAuth,
    memberLimit(deps.limits, 'upload', deps.config.MEMBER_LIMITS),
    // a member restricted from uploading (issue 32) is refused before the file is read
    (req, _res, next) => {
      assertNotRestricted(events, currentUserId(req), 'upload', new Date()).then(() => next(), next);
    },
    // a member whose day's quota is spent is refused before the file is read
    (req, res, next) => {
      if (!deps.config.MEMBER_LIMITS) return next();
      deps.limits
        .count(uploadBytes, currentUserId(req))
        .then((c) => next(c.count >= uploadBytes.limit ? quotaReached(c.resetInMs, res) : undefined))
        .catch(next);
    },
    uploads.multipart([{ name: 'video', maxCount: 1, as: 'video', folder: 'videos' }]),
    route(async (req, res) => {
      const ownerId = currentUserId(req);
      const body = parseInput(UploadBody, bodyOf(req));
      const file = firstFile(req, 'video');
      if (!file) throw new HttpError(400, UPLOAD_MESSAGES.videoRequired);
      // the day's bytes, once the file's size is known (a refused file is removed with the answer)
      if (deps.config.MEMBER_LIMITS) {
        const quota = await deps.limits.take(uploadBytes, ownerId, Math.max(1, file.size));
        if (!quota.taken) throw quotaReached(quota.resetInMs, res);
      }
      const kept = await uploads.keep(file, 'video', 'videos');
      const filePath = videoFilePath(kept.name);
      let result;
      try {
        result = await uploadVideo(
          events,
          ids,
          ownerId,
          {
            title: body.title,
            description: body.description,
            filePath,
            mimeType: kept.kind.mime,
            sizeBytes: file.size,
          },
          contextOf(req),
        );
      } catch (e) {
        await uploads.remove('videos', kept.name);
        throw e;
      }
      await answerWrite(sessions, req, res, result.position);
      await enqueueVideoProcessing(jobs, result.videoId, filePath);
      res.status(201).json({
        message: VIDEO_ROUTE_MESSAGES.uploaded,
        video: { id: result.videoId, title: body.title, description: body.description, file_path: filePath },
      } satisfies VideoUploadedAnswer);
    }),
  );

  /** a card display; the viewer is the session user ("userEmail", when sent, must be theirs) */
  r.post(
    '/videos/views',
    requireAuth,
    route(async (req, res) => {
      const body = parseInput(ViewBody, bodyOf(req));
      await actingMember(req, events, body.userEmail);
      const position = await recordView(events, currentUserId(req), body.videoId, contextOf(req));
      await answerMessage(sessions, req, res, position, M.viewed);
    }),
  );

  /** a public video to anyone, visitors too (a shared link); the others as below */
  r.get(
    '/videos/:id',
    route(async (req, res) => {
      const { id } = parseInput(VideoIdParam, req.params);
      const viewerId = req.session?.userId;
      const found = await q.video(id, viewerId);
      if (!found) throw new HttpError(404, M.videoNotFound);
      // a visitor is anyone on the internet: the author's address stays among members
      if (found.visible && !viewerId) return void res.json(withoutEmails(found.video) satisfies ViewerVideo);
      if (found.visible) return void res.json(found.video satisfies ViewerVideo);
      // not public: administrators see it, and so does the author of a video hidden by moderation
      // (with the sanction message); anyone else (a visitor too) is told it is unavailable
      if (!viewerId) throw new HttpError(404, M.videoUnavailable);
      const me = await sessionUser(req, q);
      const hiddenForItsAuthor = found.doc.status === VISIBILITY_HIDDEN && found.doc.user_id === me._id;
      if (!me.is_admin && !hiddenForItsAuthor) throw new HttpError(404, M.videoUnavailable);
      const sanction = (await latestSanctions(read, [id])).get(id) ?? null;
      res.json({ ...found.video, moderation_message: sanction } satisfies VideoCard);
    }),
  );

  const remove = route(async (req, res) => {
    const { id } = parseInput(VideoIdParam, req.params);
    const result = await deleteVideo(events, currentUserId(req), id, contextOf(req));
    // deleted by its owner: its files are erased (an administrator's deletion is moderation, undone
    // by making it public again: they stay). A failure here leaves them to the sweep at start.
    if (result.events.length > 0 && result.state.status !== 'none' && result.state.erased) {
      await eraseVideoFiles(uploads.files, id, result.state.filePath).catch((err: unknown) =>
        log.warn({ err, videoId: id }, 'fichiers de la vidéo supprimée non effacés'),
      );
    }
    await answerMessage(sessions, req, res, result.position, M.deleted);
  });
  r.delete('/videos/:id', requireAuth, remove);
  r.delete('/videos/delete/:id', requireAuth, remove);

  /** a video whose processing failed at every try: processed again (its author, or an administrator) */
  r.post(
    '/videos/:id/processing/retry',
    requireAuth,
    route(async (req, res) => {
      const { id } = parseInput(VideoIdParam, req.params);
      const result = await retryVideoProcessing(events, jobs, currentUserId(req), id, contextOf(req));
      await answerMessage(sessions, req, res, result.position, VIDEO_ROUTE_MESSAGES.processingRetried);
    }),
  );

  /** like or unlike, then the count once the read models include it */
  const like = (liked: boolean) =>
    route(async (req, res) => {
      const { id } = parseInput(VideoIdParam, req.params);
      const result = await setLike(events, currentUserId(req), id, liked, contextOf(req));
      await answerWrite(sessions, req, res, result.position);
      // nothing new (liked twice): the like this answer counts may still be on its way
      const last = req.session?.lastPosition ? BigInt(req.session.lastPosition) : undefined;
      const wait = maxPosition(result.position, last);
      if (wait !== undefined) await progress.waitFor(wait, COUNT_WAIT_MS);
      res.json({ liked, likes_count: (await q.likesCount(id)) ?? 0 } satisfies LikeAnswer);
    });
  r.post('/videos/:id/like', requireAuth, like(true));
  r.delete('/videos/:id/like', requireAuth, like(false));

  r.post(
    '/favorite/:id',
    requireAuth,
    route(async (req, res) => {
      const { id } = parseInput(VideoIdParam, req.params);
      const { favorited, position } = await toggleFavorite(events, currentUserId(req), id, contextOf(req));
      await answerWrite(sessions, req, res, position);
      res.json({ favorited, message: favorited ? M.favorited : M.unfavorited } satisfies FavoriteAnswer);
    }),
  );

  /** my favourite videos still visible, most recently added first (`?page=`, `?limit=`) */
  r.get(
    '/favorites',
    requireAuth,
    route(async (req, res) => {
      const page = pageOf(req);
      res.json(await q.favorites(currentUserId(req), page));
    }),
  );

  return r;
}
