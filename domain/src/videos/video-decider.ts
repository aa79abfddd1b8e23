import type { Decider } from '../shared/decider';
import { conflict } from '../shared/errors';
import type { VideoEvent, VideoUploaded } from './events';

export const videoStream = (videoId: number) => `video-${videoId}`;

export type VideoCommand = { type: 'UploadVideo' } & VideoUploaded['data'];
export type VideoState = { status: 'none' } | { status: 'uploaded'; videoId: number; ownerId: string };

export const videoDecider: Decider<VideoCommand, VideoEvent, VideoState> = {
  initialState: () => ({ status: 'none' }),
  evolve: (_state, event) => ({ status: 'uploaded', videoId: event.data.videoId, ownerId: event.data.ownerId }),
  decide(command, state) {
    if (state.status !== 'none') throw conflict('Cette vidéo existe déjà.');
    const { type: _t, ...data } = command;
    return [{ type: 'VideoUploaded', data }];
  },
};
