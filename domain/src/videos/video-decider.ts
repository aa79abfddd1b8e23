import type { Decider } from '../shared/decider';
import { conflict, notFound } from '../shared/errors';
import type { VideoEvent, VideoProcessed, VideoRejected, VideoUploaded } from './events';

export const videoStream = (videoId: number) => `video-${videoId}`;

export const VIDEO_MESSAGES = {
  exists: 'Cette vidéo existe déjà.',
  notFound: 'Vidéo introuvable.',
  unreadable: "Le fichier n'a pas pu être lu comme une vidéo.",
} as const;

export type VideoCommand =
  | ({ type: 'UploadVideo' } & VideoUploaded['data'])
  | ({ type: 'RecordProcessing' } & VideoProcessed['data'])
  | ({ type: 'RejectVideo' } & VideoRejected['data']);

export type VideoState =
  | { status: 'none' }
  | { status: 'uploaded' | 'processed' | 'rejected'; videoId: number; ownerId: string };

export const videoDecider: Decider<VideoCommand, VideoEvent, VideoState> = {
  initialState: () => ({ status: 'none' }),
  evolve(state, event) {
    switch (event.type) {
      case 'VideoUploaded':
        return { status: 'uploaded', videoId: event.data.videoId, ownerId: event.data.ownerId };
      case 'VideoProcessed':
        return state.status === 'none' ? state : { ...state, status: 'processed' };
      case 'VideoRejected':
        return state.status === 'none' ? state : { ...state, status: 'rejected' };
    }
  },
  decide(command, state) {
    const { type, ...data } = command;
    if (type === 'UploadVideo') {
      if (state.status !== 'none') throw conflict(VIDEO_MESSAGES.exists);
      return [{ type: 'VideoUploaded', data: data as VideoUploaded['data'] }];
    }
    if (state.status === 'none') throw notFound(VIDEO_MESSAGES.notFound);
    // processing runs at least once: a second outcome for the same video changes nothing
    if (state.status !== 'uploaded') return [];
    return type === 'RecordProcessing'
      ? [{ type: 'VideoProcessed', data: data as VideoProcessed['data'] }]
      : [{ type: 'VideoRejected', data: data as VideoRejected['data'] }];
  },
};
