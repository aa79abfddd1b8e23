import type { Decider } from '../shared/decider';
import { conflict, forbidden, notFound } from '../shared/errors';
import type { AppealEvent } from '../moderation/events';
import { defaultDecisionReason } from '../moderation/appeal-rules';
import type {
  VideoEvent,
  VideoProcessed,
  VideoProcessingFailed,
  VideoRejected,
  VideoUploaded,
  VIDEO_VISIBILITIES,
} from './events';

export const videoStream = (videoId: number) => `video-${videoId}`;

export const VIDEO_MESSAGES = {
  exists: 'Cette vidéo existe déjà.',
  notFound: 'Vidéo introuvable.',
  unreadable: "Le fichier n'a pas pu être lu comme une vidéo.",
  notOwner: 'Tu ne peux supprimer que tes propres vidéos.',
  adminOnly: 'Accès réservé aux administrateurs.',
  erasedByOwner:
    'Cette vidéo a été supprimée par son auteur : ses fichiers sont effacés, elle ne peut plus être rétablie.',
  processingFailed: 'Le traitement de la vidéo a échoué sur le serveur. Relance-le ou supprime la vidéo.',
  notFailed: "Le traitement de cette vidéo n'a pas échoué : il n'y a rien à relancer.",
  notOwnerRetry: 'Seul son auteur peut relancer le traitement de cette vidéo.',
} as const;

/**
 * the product states and transitions, "Video visibility": 'supprimée' by its owner (VideoDeleted) or an administrator,
 * any of the three by an administrator (VideoVisibilityChanged; a video an administrator deleted may
 * be made public again). An owner's own deletion is final: its files are erased (the owner's right
 * to have it gone), so it cannot be made public again.
 */
export type VideoVisibility = (typeof VIDEO_VISIBILITIES)[number];

export type VideoCommand =
  | ({ type: 'UploadVideo' } & VideoUploaded['data'])
  | ({ type: 'RecordProcessing' } & VideoProcessed['data'])
  | ({ type: 'RejectVideo' } & VideoRejected['data'])
  /** the job's last try failed on our side: the video waits for its author */
  | ({ type: 'FailProcessing' } & VideoProcessingFailed['data'])
  | {
      type: 'RetryProcessing';
      videoId: number;
      requesterId: string;
      /** from the requester's user stream (role admin), looked up by the handler */
      requesterIsAdmin: boolean;
    }
  | {
      type: 'DeleteVideo';
      videoId: number;
      requesterId: string;
      /** from the requester's user stream (role admin), looked up by the handler */
      requesterIsAdmin: boolean;
      /** an administrator deleting someone's video decides: when, and why (a sanction message) */
      now: Date;
      reason?: string | null;
    }
  | {
      type: 'SetVideoVisibility';
      videoId: number;
      visibility: VideoVisibility;
      requesterId: string;
      /** from the requester's user stream (role admin), looked up by the handler */
      requesterIsAdmin: boolean;
      now: Date;
      /** the sanction message of a hide or delete; SPEC's matching one when none is chosen */
      reason?: string | null;
    };

/** every event of a `video-<id>` stream: its life, and the appeals against moderation decisions on it */
export type VideoStreamEvent = VideoEvent | AppealEvent;

export type VideoState =
  | { status: 'none' }
  | {
      /** processing: the worker's outcome ('failed': every try failed on our side, until retried) */
      status: 'uploaded' | 'processed' | 'rejected' | 'failed';
      videoId: number;
      ownerId: string;
      /** who may see it: 'publique' at upload; an owner's deletion or an administrator's decision changes it */
      visibility: VideoVisibility;
      /** deleted by its owner: its files are erased, for good */
      erased?: boolean;
      /** its file's URL path (/uploads/videos/<name>) */
      filePath?: string;
      /** moderation decisions taken on it so far (the next one is numbered after them) */
      decisions?: number;
    };

/**
 * Can members interact with it (like, view, favourite, report)? It exists, is public and was not
 * rejected by processing (a video still being processed is shown, as on profiles).
 */
export type ExistingVideo = Exclude<VideoState, { status: 'none' }>;
export const isVideoAvailable = (v: VideoState): v is ExistingVideo =>
  v.status !== 'none' && v.status !== 'rejected' && v.visibility === 'publique';

/** The interaction rule: an unknown, deleted, hidden or rejected video is 404 'Vidéo introuvable.'. */
export function requireAvailableVideo(v: VideoState): ExistingVideo {
  if (!isVideoAvailable(v)) throw notFound(VIDEO_MESSAGES.notFound);
  return v;
}

/** The decision fields of an administrator's hide or delete (see VideoVisibilityChanged). */
function decision(
  state: ExistingVideo,
  command: { visibility: VideoVisibility; now: Date; reason?: string | null },
): { decisionNo: number; ownerId: string; previousStatus: VideoVisibility; reason: string; at: string } {
  return {
    decisionNo: (state.decisions ?? 0) + 1,
    ownerId: state.ownerId,
    previousStatus: state.visibility,
    reason: command.reason || defaultDecisionReason(command.visibility),
    at: command.now.toISOString(),
  };
}

export const videoDecider: Decider<VideoCommand, VideoStreamEvent, VideoState> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'VideoUploaded':
        return {
          status: 'uploaded',
          videoId: event.data.videoId,
          ownerId: event.data.ownerId,
          visibility: 'publique',
          filePath: event.data.filePath,
        };
      case 'VideoProcessed':
        return state.status === 'none' ? state : { ...state, status: 'processed' };
      case 'VideoRejected':
        return state.status === 'none' ? state : { ...state, status: 'rejected' };
      case 'VideoProcessingFailed':
        return state.status === 'none' ? state : { ...state, status: 'failed' };
      case 'VideoProcessingRetried':
        return state.status === 'none' ? state : { ...state, status: 'uploaded' };
      case 'VideoDeleted':
        return state.status === 'none'
          ? state
          : {
              ...state,
              visibility: 'supprimée',
              erased: state.erased || event.data.deletedBy === state.ownerId,
              decisions: Math.max(state.decisions ?? 0, event.data.decisionNo ?? 0),
            };
      case 'VideoVisibilityChanged':
        return state.status === 'none'
          ? state
          : {
              ...state,
              visibility: event.data.status,
              decisions: Math.max(state.decisions ?? 0, event.data.decisionNo ?? 0),
            };
      case 'DecisionAppealed':
      case 'AppealAnswered':
        return state;
    }
  },
  decide(command, state) {
    if (command.type === 'SetVideoVisibility') {
      if (!command.requesterIsAdmin) throw forbidden(VIDEO_MESSAGES.adminOnly);
      if (state.status === 'none') throw notFound(VIDEO_MESSAGES.notFound);
      // setting the visibility it already has changes nothing: no event
      if (state.visibility === command.visibility) return [];
      if (state.erased) throw conflict(VIDEO_MESSAGES.erasedByOwner);
      const data = { videoId: state.videoId, status: command.visibility, changedBy: command.requesterId };
      // hiding or deleting is a decision its author is told about and may contest; making public is not
      if (command.visibility === 'publique') return [{ type: 'VideoVisibilityChanged', data }];
      return [{ type: 'VideoVisibilityChanged', data: { ...data, ...decision(state, command) } }];
    }
    if (command.type === 'DeleteVideo') {
      if (state.status === 'none' || state.visibility === 'supprimée') throw notFound(VIDEO_MESSAGES.notFound);
      if (command.requesterId !== state.ownerId && !command.requesterIsAdmin) throw forbidden(VIDEO_MESSAGES.notOwner);
      const data = { videoId: state.videoId, ownerId: state.ownerId, deletedBy: command.requesterId };
      if (command.requesterId === state.ownerId) return [{ type: 'VideoDeleted', data }];
      return [{ type: 'VideoDeleted', data: { ...decision(state, { ...command, visibility: 'supprimée' }), ...data } }];
    }
    if (command.type === 'RetryProcessing') {
      if (state.status === 'none' || state.visibility === 'supprimée') throw notFound(VIDEO_MESSAGES.notFound);
      if (command.requesterId !== state.ownerId && !command.requesterIsAdmin)
        throw forbidden(VIDEO_MESSAGES.notOwnerRetry);
      if (state.status !== 'failed') throw conflict(VIDEO_MESSAGES.notFailed);
      return [{ type: 'VideoProcessingRetried', data: { videoId: state.videoId, requestedBy: command.requesterId } }];
    }
    const { type, ...data } = command;
    if (type === 'UploadVideo') {
      if (state.status !== 'none') throw conflict(VIDEO_MESSAGES.exists);
      return [{ type: 'VideoUploaded', data: data as VideoUploaded['data'] }];
    }
    if (state.status === 'none') throw notFound(VIDEO_MESSAGES.notFound);
    // processing runs at least once: a second outcome for the same video changes nothing
    // (a deleted video may still be processed: its card stays hidden, the outcome is recorded);
    // a job that ran again after a failure may still bring its outcome
    if (type === 'FailProcessing')
      return state.status === 'uploaded'
        ? [{ type: 'VideoProcessingFailed', data: data as VideoProcessingFailed['data'] }]
        : [];
    if (state.status !== 'uploaded' && state.status !== 'failed') return [];
    return type === 'RecordProcessing'
      ? [{ type: 'VideoProcessed', data: data as VideoProcessed['data'] }]
      : [{ type: 'VideoRejected', data: data as VideoRejected['data'] }];
  },
};
