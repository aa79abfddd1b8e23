import type { NormalizedLandmarkList } from '@mediapipe/face_mesh';
import { LEFT_EYE_OUTER, RIGHT_EYE_OUTER, coverFit, placeOverlay } from './overlayPlacement';

const usable = (image: HTMLImageElement | null): image is HTMLImageElement =>
  image !== null && image.complete && image.naturalWidth > 0;

/**
 * One frame of the recorder canvas: the camera image (cover-fitted) and, when a
 * face is known and a filter chosen, the overlay at the eyes. Without a face the
 * frame is drawn without overlay.
 */
export function drawFrame(
  context: CanvasRenderingContext2D,
  video: HTMLVideoElement,
  overlay: HTMLImageElement | null,
  landmarks: NormalizedLandmarkList | null,
) {
  const { width, height } = context.canvas;
  context.fillStyle = '#111114';
  context.fillRect(0, 0, width, height);

  const frame = video.videoWidth > 0 ? { width: video.videoWidth, height: video.videoHeight } : null;
  if (frame && video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) {
    const fit = coverFit(frame, { width, height });
    context.drawImage(video, fit.x, fit.y, fit.width, fit.height);
  }

  if (!usable(overlay) || !landmarks) return;
  const placement = placeOverlay(landmarks[RIGHT_EYE_OUTER], landmarks[LEFT_EYE_OUTER], frame, { width, height });
  if (!placement) return;
  context.save();
  if (placement.angle !== 0) {
    context.translate(placement.pivot.x, placement.pivot.y);
    context.rotate(placement.angle);
    context.translate(-placement.pivot.x, -placement.pivot.y);
  }
  context.drawImage(overlay, placement.x, placement.y, placement.width, placement.height);
  context.restore();
}
