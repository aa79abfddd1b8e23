import type { FileStore } from '@evo/infra';

/** The stored name of a video's file, from its URL path (/uploads/videos/<name>). */
export const videoFileName = (filePath: string): string => filePath.replace(/^\/uploads\/videos\//, '');

/** A video's poster: named after the video, made by its processing job. */
export const posterName = (videoId: number): string => `${videoId}.jpg`;

/** Erases a video's file and poster from the store (a missing one is no error). */
export async function eraseVideoFiles(files: FileStore, videoId: number, filePath: string | undefined): Promise<void> {
  await Promise.all([
    filePath ? files.remove('videos', videoFileName(filePath)) : Promise.resolve(),
    files.remove('posters', posterName(videoId)),
  ]);
}
