/**
 * Pixel checks for the face overlay test: where on a frame is an overlay image
 * drawn? Pure functions over RGBA buffers (canvas ImageData, or an ffmpeg
 * rgba frame), no browser.
 */

export interface Rgba {
  width: number;
  height: number;
  /** width * height * 4 bytes, row by row. */
  data: Uint8Array;
}

export interface Point {
  x: number;
  y: number;
}

/** Where an overlay is expected: its top-left corner unrotated, then a rotation by `angle` around `pivot`. */
export interface Placement {
  x: number;
  y: number;
  angle: number;
  pivot: Point;
}

interface OverlayPixel {
  /** Centre of the pixel in the overlay image. */
  u: number;
  v: number;
  rgb: [number, number, number];
}

const at = (image: Rgba, x: number, y: number) => (y * image.width + x) * 4;

/**
 * The overlay's solid inside: fully opaque pixels whose 3x3 neighbourhood is
 * opaque and of nearly the same colour, so that resampling at a fractional
 * position, video compression and chroma subsampling keep their colour.
 */
export function solidPixels(overlay: Rgba, spread = 1, maxStep = 12): OverlayPixel[] {
  const out: OverlayPixel[] = [];
  for (let v = spread; v < overlay.height - spread; v++) {
    for (let u = spread; u < overlay.width - spread; u++) {
      const i = at(overlay, u, v);
      if (overlay.data[i + 3] !== 255) continue;
      let solid = true;
      for (let dv = -spread; dv <= spread && solid; dv++) {
        for (let du = -spread; du <= spread && solid; du++) {
          const j = at(overlay, u + du, v + dv);
          if (overlay.data[j + 3] !== 255) solid = false;
          for (let c = 0; c < 3 && solid; c++)
            if (Math.abs(overlay.data[j + c] - overlay.data[i + c]) > maxStep) solid = false;
        }
      }
      if (solid) out.push({ u: u + 0.5, v: v + 0.5, rgb: [overlay.data[i], overlay.data[i + 1], overlay.data[i + 2]] });
    }
  }
  return out;
}

/** An overlay point in frame coordinates for a placement (moved by dx, dy). */
export function toFrame(p: Point, placement: Placement, dx = 0, dy = 0): Point {
  const x = placement.x + p.x + dx;
  const y = placement.y + p.y + dy;
  const cx = placement.pivot.x + dx;
  const cy = placement.pivot.y + dy;
  const cos = Math.cos(placement.angle);
  const sin = Math.sin(placement.angle);
  return { x: cx + (x - cx) * cos - (y - cy) * sin, y: cy + (x - cx) * sin + (y - cy) * cos };
}

/** Share (0..1) of the solid overlay pixels found in the frame, within `tolerance` on every channel, at a placement. */
export function matchShare(
  frame: Rgba,
  pixels: OverlayPixel[],
  placement: Placement,
  tolerance: number,
  dx = 0,
  dy = 0,
) {
  if (pixels.length === 0) return 0;
  let hits = 0;
  for (const p of pixels) {
    const q = toFrame({ x: p.u, y: p.v }, placement, dx, dy);
    const x = Math.floor(q.x);
    const y = Math.floor(q.y);
    if (x < 0 || y < 0 || x >= frame.width || y >= frame.height) continue;
    const i = at(frame, x, y);
    if (
      Math.abs(frame.data[i] - p.rgb[0]) <= tolerance &&
      Math.abs(frame.data[i + 1] - p.rgb[1]) <= tolerance &&
      Math.abs(frame.data[i + 2] - p.rgb[2]) <= tolerance
    ) {
      hits++;
    }
  }
  return hits / pixels.length;
}

/** The shift (dx, dy within ±radius) at which the overlay best matches the frame, and that match. */
export function bestShift(frame: Rgba, pixels: OverlayPixel[], placement: Placement, tolerance: number, radius = 20) {
  let best = { dx: 0, dy: 0, share: -1 };
  for (let dy = -radius; dy <= radius; dy++) {
    for (let dx = -radius; dx <= radius; dx++) {
      const share = matchShare(frame, pixels, placement, tolerance, dx, dy);
      const closer = share === best.share && Math.hypot(dx, dy) < Math.hypot(best.dx, best.dy);
      if (share > best.share || closer) best = { dx, dy, share };
    }
  }
  return best;
}

/** Bounding box of the pixels that differ (by more than `threshold` on a channel) between two frames of one size. */
export function differenceBox(a: Rgba, b: Rgba, threshold = 24) {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  let count = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      const i = at(a, x, y);
      const differs =
        Math.abs(a.data[i] - b.data[i]) > threshold ||
        Math.abs(a.data[i + 1] - b.data[i + 1]) > threshold ||
        Math.abs(a.data[i + 2] - b.data[i + 2]) > threshold;
      if (!differs) continue;
      count++;
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
    }
  }
  return count === 0 ? null : { minX, minY, maxX, maxY, count };
}

/** Bounding box of the overlay's visible pixels (alpha > 0) drawn at a placement. */
export function overlayBox(overlay: Rgba, placement: Placement) {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let v = 0; v < overlay.height; v++) {
    for (let u = 0; u < overlay.width; u++) {
      if (overlay.data[at(overlay, u, v) + 3] < 128) continue;
      for (const corner of [
        { x: u, y: v },
        { x: u + 1, y: v + 1 },
      ]) {
        const q = toFrame(corner, placement);
        minX = Math.min(minX, q.x);
        minY = Math.min(minY, q.y);
        maxX = Math.max(maxX, q.x);
        maxY = Math.max(maxY, q.y);
      }
    }
  }
  return { minX, minY, maxX, maxY };
}
