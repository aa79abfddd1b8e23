import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mediaTools } from './media-tools';

const run = promisify(execFile);

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
      (await mediaTools()).ffprobe,
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
  let duration = Number(out.format?.duration ?? video.duration ?? NaN);
  // WebM from MediaRecorder (the in-app recorder) has no duration in its header: read where its
  // last video packet ends instead
  if (!(duration > 0)) duration = await lastPacketEnd(file);
  return {
    durationSeconds: Number.isFinite(duration) ? Math.round(duration * 100) / 100 : 0,
    sizeBytes: Number(out.format?.size ?? 0),
    codec: video.codec_name ?? 'inconnu',
    width: video.width ?? 0,
    height: video.height ?? 0,
  };
}

/** Where the last video packet ends (its timestamp plus its duration), in seconds; NaN when unknown. */
async function lastPacketEnd(file: string): Promise<number> {
  try {
    const { stdout } = await run(
      (await mediaTools()).ffprobe,
      [
        '-v',
        'error',
        '-select_streams',
        'v:0',
        '-show_entries',
        'packet=pts_time,duration_time',
        '-of',
        'csv=p=0',
        file,
      ],
      { timeout: 60_000, maxBuffer: 10 * 1024 * 1024 },
    );
    let end = NaN;
    for (const line of stdout.split('\n')) {
      const [pts, length] = line.split(',').map(Number);
      if (Number.isFinite(pts))
        end = Math.max(Number.isFinite(end) ? end : 0, pts + (Number.isFinite(length) ? length : 0));
    }
    return end;
  } catch {
    return NaN;
  }
}

/** Write a JPEG poster from the first second of the video; false when ffmpeg cannot. */
export async function makePoster(file: string, poster: string, atSeconds: number): Promise<boolean> {
  try {
    await run(
      (await mediaTools()).ffmpeg,
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
