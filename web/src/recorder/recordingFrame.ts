import { CANVAS_HEIGHT, CANVAS_WIDTH, type Size } from './overlayPlacement';

/**
 * The shape of what the recorder films (pure, no DOM). On a wide screen the product's frame: the
 * front camera at 640x480 drawn on the 320x220 canvas (the product business constants). On a phone
 * held upright, a vertical video, 9:16 as TikTok's: the camera is asked for a portrait picture
 * (a camera that cannot give one is cover-cropped to it), on a 180x320 canvas, so that the 100x60
 * overlay keeps about the size it has on a face on the 320x220 one.
 */
export type FrameOrientation = 'landscape' | 'portrait';

export interface RecordingFrame {
  orientation: FrameOrientation;
  canvas: Size;
  camera: MediaTrackConstraints;
}

/** the product business constants: front camera at 640x480, 320x220 canvas */
export const LANDSCAPE_FRAME: RecordingFrame = {
  orientation: 'landscape',
  canvas: { width: CANVAS_WIDTH, height: CANVAS_HEIGHT },
  camera: { facingMode: 'user', width: 640, height: 480 },
};

export const PORTRAIT_FRAME: RecordingFrame = {
  orientation: 'portrait',
  canvas: { width: 180, height: 320 },
  // ideal, never required: a camera without a portrait mode still opens (and is cropped)
  camera: { facingMode: 'user', width: { ideal: 720 }, height: { ideal: 1280 }, aspectRatio: { ideal: 9 / 16 } },
};

/** Screens at most this wide, taller than wide, film vertically. */
export const PORTRAIT_MAX_WIDTH = 600;

/** The frame for a screen of this size (the viewport in CSS pixels). */
export function recordingFrame(viewport: Size): RecordingFrame {
  const upright = viewport.width <= PORTRAIT_MAX_WIDTH && viewport.height > viewport.width;
  return upright ? PORTRAIT_FRAME : LANDSCAPE_FRAME;
}
