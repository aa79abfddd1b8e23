import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createRequire } from 'node:module';

const run = promisify(execFile);
const require = createRequire(import.meta.url);
// binaries shipped inside npm packages: nothing is downloaded at run time
const ffprobePath: string = (require('@ffprobe-installer/ffprobe') as { path: string }).path;
const ffmpegPath: string = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;

export interface VideoProbe {
  durationSeconds: number;
  sizeBytes: number;
  codec: string;
  width: number;
  height: number;
}

interface FfprobeOutput {
  streams?: Array<{ codec_type?: string; codec_name?: string; width?: number; height?: number; duration?: string }>;
  format?: { duration?: string; size?: string };
}

/** Read duration, size and codec; undefined when the file has no readable video stream. */
export async function probeVideo(file: string): Promise<VideoProbe | undefined> {
  let out: FfprobeOutput;
  try {
    const { stdout } = await run(
      ffprobePath,
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
      {
        timeout: 60_000,
        maxBuffer: 10 * 1024 * 1024,
      },
    );
    out = JSON.parse(stdout) as FfprobeOutput;
  } catch {
    return undefined;
  }
  const video = out.streams?.find((s) => s.codec_type === 'video');
  if (!video) return undefined;
  const duration = Number(out.format?.duration ?? video.duration ?? NaN);
  return {
    // WebM from MediaRecorder often has no duration in its header
    durationSeconds: Number.isFinite(duration) ? Math.round(duration * 100) / 100 : 0,
    sizeBytes: Number(out.format?.size ?? 0),
    codec: video.codec_name ?? 'inconnu',
    width: video.width ?? 0,
    height: video.height ?? 0,
  };
}

/** Write a JPEG poster from the first second of the video; false when ffmpeg cannot. */
export async function makePoster(file: string, poster: string, atSeconds: number): Promise<boolean> {
  try {
    await run(
      ffmpegPath,
      [
        '-v',
        'error',
        '-y',
        '-ss',
        String(atSeconds),
        '-i',
        file,
        '-frames:v',
        '1',
        '-vf',
        'scale=360:-2',
        '-q:v',
        '4',
        poster,
      ],
      { timeout: 60_000 },
    );
    return true;
  } catch {
    return false;
  }
}
