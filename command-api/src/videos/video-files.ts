import type { FileStore } from '@evo/infra';

/** The stored name of a video's file, from its URL path (/uploads/videos/<name>). */
export const videoFileName = (filePath: string): string => filePath.replace(/^\/uploads\/videos\//, '');

/** The URL path of a video's stored file: what its events and read models name. */
export const videoFilePath = (name: string): string => `/uploads/videos/${name}`;

/** A video's poster: named after the video, made by its processing job. */
export const posterName = (videoId: number): string => `${videoId}.jpg`;

/** The video a poster is named after (undefined for a name no poster has). */
export function videoIdOfPoster(name: string): number | undefined {
  const id = /^(\d{1,15})\.jpg$/.exec(name)?.[1];
  return id === undefined ? undefined : Number(id);
}

/** Erases a video's file and poster from the store (a missing one is no error). */
export async function eraseVideoFiles(files: FileStore, videoId: number, filePath: string | undefined): Promise<void> {
  await Promise.all([
    filePath ? files.remove('videos', videoFileName(filePath)) : Promise.resolve(),
    files.remove('posters', posterName(videoId)),
  ]);
}
