import { Router } from 'express';
import { z } from 'zod';
import { descriptionField, videoTitleField } from '@evo/domain';
import type { AppDeps } from '../deps';
import { HttpError, route } from '../http/errors';
import { currentUserId, requireAuth } from '../http/session';
import { answerWrite } from '../http/read-your-writes';
import { contextOf } from '../http/context';
import { UPLOAD_MESSAGES, firstFile } from '../uploads/upload-store';
import { uploadVideo } from '../identity/commands';
import { enqueueVideoProcessing } from './processing';

export const VIDEO_ROUTE_MESSAGES = {
  uploaded: 'Vidéo envoyée avec succès !',
} as const;

const UploadBody = z.object({ title: videoTitleField, description: descriptionField });

export function videosRouter(deps: AppDeps): Router {
  const { events, sessions, uploads, jobs } = deps;
  const r = Router();

  r.post(
    '/videos/upload',
    requireAuth,
    uploads.multipart([{ name: 'video', maxCount: 1 }]),
    route(async (req, res) => {
      const ownerId = currentUserId(req);
      const body = UploadBody.parse(req.body ?? {});
      const file = firstFile(req, 'video');
      if (!file) throw new HttpError(400, UPLOAD_MESSAGES.videoRequired);
      const kept = await uploads.keep(file, 'video', 'videos');
      const filePath = `/uploads/videos/${kept.name}`;
      let result;
      try {
        result = await uploadVideo(
          events,
          ownerId,
          { title: body.title, description: body.description, filePath, mimeType: kept.kind.mime, sizeBytes: file.size },
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
      });
    }),
  );

  return r;
}
