import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { accessSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * Which ffmpeg and ffprobe parse the uploads (untrusted files). The system's, found on PATH, come
 * first: a distribution patches them (the Docker image installs Debian's). The binaries of the npm
 * packages (@ffmpeg-installer: a 2018 build) are only a fallback, announced by a warning at start.
 */
export type MediaToolsSource = 'system' | 'bundled';

export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
  source: MediaToolsSource;
  /** the first line of `ffmpeg -version`, for the start-up log */
  version: string;
}

const require = createRequire(import.meta.url);
const run = promisify(execFile);

function executableOnPath(name: string, searchPath: string): string | undefined {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** The first line of `<binary> -version`, or undefined when it does not run. */
async function versionOf(binary: string): Promise<string | undefined> {
  try {
    const { stdout } = await run(binary, ['-version'], { timeout: 10_000, encoding: 'utf8' });
    return stdout.split('\n')[0]?.trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The system's ffmpeg and ffprobe when both are on `searchPath` and run; else the bundled ones. */
export async function findMediaTools(searchPath = process.env.PATH ?? ''): Promise<MediaTools> {
  const ffmpeg = executableOnPath('ffmpeg', searchPath);
  const ffprobe = executableOnPath('ffprobe', searchPath);
  if (ffmpeg && ffprobe) {
    const [version, probeRuns] = await Promise.all([versionOf(ffmpeg), versionOf(ffprobe)]);
    if (version && probeRuns) return { ffmpeg, ffprobe, source: 'system', version };
  }
  const bundledFfmpeg = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  return {
    ffmpeg: bundledFfmpeg,
    ffprobe: (require('@ffprobe-installer/ffprobe') as { path: string }).path,
    source: 'bundled',
    version: (await versionOf(bundledFfmpeg)) ?? 'inconnue',
  };
}

let chosen: Promise<MediaTools> | undefined;
/** This process's choice, made once (off the event loop: two `-version` runs, about half a second). */
export const mediaTools = (): Promise<MediaTools> => (chosen ??= findMediaTools());

/** Says at start which ffmpeg runs: a warning for the bundled one. */
export async function announceMediaTools(
  log: { info: (o: object, msg: string) => void; warn: (o: object, msg: string) => void },
  chosenTools: Promise<MediaTools> = mediaTools(),
): Promise<MediaTools> {
  const tools = await chosenTools;
  const fields = { ffmpeg: tools.ffmpeg, ffprobe: tools.ffprobe, version: tools.version };
  if (tools.source === 'system') log.info(fields, 'ffmpeg et ffprobe du système pour les vidéos');
  else
    log.warn(
      fields,
      'ffmpeg et ffprobe du système introuvables (PATH) : les vidéos sont lues par ceux du paquet npm, une version de 2018. Installez ffmpeg (apt-get install ffmpeg).',
    );
  return tools;
}
