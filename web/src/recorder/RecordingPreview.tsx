import { type SyntheticEvent } from 'react';
import { useObjectUrl } from '../shell/useObjectUrl';

/**
 * Chrome's MediaRecorder writes webm files without a duration, so the player
 * shows no length and cannot seek. Seeking far away once makes the browser scan
 * the file and learn its duration; then the player goes back to the start.
 */
function fixUnknownDuration(event: SyntheticEvent<HTMLVideoElement>) {
  const video = event.currentTarget;
  if (Number.isFinite(video.duration)) return;
  const rewind = () => {
    if (!Number.isFinite(video.duration)) return;
    video.removeEventListener('durationchange', rewind);
    video.currentTime = 0;
  };
  video.addEventListener('durationchange', rewind);
  video.currentTime = Number.MAX_SAFE_INTEGER;
}

/** The recorded video, with controls (the product states and transitions: preview after stop). */
export function RecordingPreview({ blob }: { blob: Blob }) {
  const url = useObjectUrl(blob);
  if (!url) return null;
  return (
    <video
      className="recorder__preview"
      src={url}
      controls
      playsInline
      preload="metadata"
      aria-label="Aperçu de l'enregistrement"
      onLoadedMetadata={fixUnknownDuration}
    />
  );
}
