/**
 * Where to draw a face overlay (the product screens, "Create video", the product business constants): one face, a
 * 320x220 canvas, an overlay of 100x60 placed from the midpoint of the two eyes.
 *
 * Pure geometry, no DOM: MediaPipe landmarks are normalised (0..1) to the camera
 * frame; the frame is drawn into the canvas "cover"-style (scaled to fill, centred,
 * the overflow cropped), so a landmark goes through the same transform.
 */

export const CANVAS_WIDTH = 320;
export const CANVAS_HEIGHT = 220;
export const OVERLAY_WIDTH = 100;
export const OVERLAY_HEIGHT = 60;

/**
 * Where the eyes sit inside every overlay image (public/filters/*.svg, 100x60):
 * the midpoint of the eyes at (50, 36), the eyes themselves around x = 30 and 70;
 * forehead / hat / ears above, nose and moustache below.
 */
export const OVERLAY_EYE_ANCHOR = { x: 50, y: 36 } as const;

/** MediaPipe Face Mesh landmark indices of the outer eye corners. */
export const RIGHT_EYE_OUTER = 33;
export const LEFT_EYE_OUTER = 263;

/** The head tilt followed by the overlay is limited to ±45°. */
export const MAX_TILT = Math.PI / 4;

export interface Point {
  x: number;
  y: number;
}

export interface Size {
  width: number;
  height: number;
}

/** Scale and offset drawing a frame into the canvas, filling it (cover) and centred. */
export interface FrameFit {
  /** Where the frame's top-left corner lands on the canvas (≤ 0 when cropped). */
  x: number;
  y: number;
  /** Drawn size of the whole frame, in canvas pixels. */
  width: number;
  height: number;
}

export interface OverlayPlacement {
  /** Top-left corner of the 100x60 overlay on the canvas, kept inside the canvas. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** Head tilt (radians, clockwise positive on screen), to rotate around the eye midpoint. */
  angle: number;
  /** The eye midpoint on the canvas (pivot for the rotation). */
  pivot: Point;
}

const isFiniteNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/** Cover fit of a frame (e.g. the 640x480 camera) into the canvas. Without a usable frame size: stretch. */
export function coverFit(
  frame: Size | null | undefined,
  canvas: Size = { width: CANVAS_WIDTH, height: CANVAS_HEIGHT },
) {
  if (!frame || !(frame.width > 0) || !(frame.height > 0)) {
    return { x: 0, y: 0, width: canvas.width, height: canvas.height } satisfies FrameFit;
  }
  const scale = Math.max(canvas.width / frame.width, canvas.height / frame.height);
  const width = frame.width * scale;
  const height = frame.height * scale;
  return { x: (canvas.width - width) / 2, y: (canvas.height - height) / 2, width, height } satisfies FrameFit;
}

/** A normalised landmark (0..1 of the frame) in canvas pixels. */
export function toCanvas(point: Point, fit: FrameFit): Point {
  return { x: fit.x + point.x * fit.width, y: fit.y + point.y * fit.height };
}

/**
 * The overlay rectangle for two eye landmarks (normalised to the frame), or null
 * when there is nothing sensible to draw: a missing or non-finite landmark, or an
 * eye midpoint outside the canvas (face cropped away). Otherwise the 100x60 box
 * puts its eye anchor on the eye midpoint and is then moved to stay entirely on
 * the canvas.
 */
export function placeOverlay(
  rightEye: Point | null | undefined,
  leftEye: Point | null | undefined,
  frame?: Size | null,
  canvas: Size = { width: CANVAS_WIDTH, height: CANVAS_HEIGHT },
  overlay: Size = { width: OVERLAY_WIDTH, height: OVERLAY_HEIGHT },
): OverlayPlacement | null {
  if (!rightEye || !leftEye) return null;
  if (![rightEye.x, rightEye.y, leftEye.x, leftEye.y].every(isFiniteNumber)) return null;

  const fit = coverFit(frame, canvas);
  const a = toCanvas(rightEye, fit);
  const b = toCanvas(leftEye, fit);
  const pivot = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
  if (pivot.x < 0 || pivot.x > canvas.width || pivot.y < 0 || pivot.y > canvas.height) return null;

  // Tilt of the eye line, read left to right on screen whatever the landmark order.
  const [left, right] = a.x <= b.x ? [a, b] : [b, a];
  const tilt = left.x === right.x && left.y === right.y ? 0 : Math.atan2(right.y - left.y, right.x - left.x);
  const angle = clamp(tilt, -MAX_TILT, MAX_TILT);

  const anchorX = (OVERLAY_EYE_ANCHOR.x / OVERLAY_WIDTH) * overlay.width;
  const anchorY = (OVERLAY_EYE_ANCHOR.y / OVERLAY_HEIGHT) * overlay.height;
  const x = clamp(pivot.x - anchorX, 0, Math.max(0, canvas.width - overlay.width));
  const y = clamp(pivot.y - anchorY, 0, Math.max(0, canvas.height - overlay.height));
  return { x, y, width: overlay.width, height: overlay.height, angle, pivot };
}
