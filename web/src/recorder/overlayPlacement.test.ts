import { describe, expect, it } from 'vitest';
import {
  CANVAS_HEIGHT,
  CANVAS_WIDTH,
  MAX_TILT,
  OVERLAY_EYE_ANCHOR,
  OVERLAY_HEIGHT,
  OVERLAY_WIDTH,
  coverFit,
  placeOverlay,
  toCanvas,
} from './overlayPlacement';

const CAMERA = { width: 640, height: 480 };

/** Eyes on a horizontal line, normalised, around a centre (cx, cy) with a half-gap. */
const eyes = (cx: number, cy: number, halfGap = 0.1) =>
  [
    { x: cx - halfGap, y: cy },
    { x: cx + halfGap, y: cy },
  ] as const;

describe('coverFit', () => {
  it('fills the 320x220 canvas with a 640x480 frame, cropping top and bottom equally', () => {
    const fit = coverFit(CAMERA);
    expect(fit.width).toBe(320);
    expect(fit.height).toBe(240);
    expect(fit.x).toBe(0);
    expect(fit.y).toBe(-10);
  });

  it('crops the sides of a wide frame', () => {
    const fit = coverFit({ width: 1280, height: 480 });
    expect(fit.height).toBeCloseTo(220);
    expect(fit.width).toBeCloseTo(586.67, 1);
    expect(fit.x).toBeCloseTo((320 - fit.width) / 2);
    expect(fit.y).toBe(0);
  });

  it('stretches when the frame size is unknown (0x0 before the first frame, or missing)', () => {
    for (const frame of [undefined, null, { width: 0, height: 0 }]) {
      expect(coverFit(frame)).toEqual({ x: 0, y: 0, width: CANVAS_WIDTH, height: CANVAS_HEIGHT });
    }
  });

  it('maps normalised landmarks through the fit', () => {
    const fit = coverFit(CAMERA);
    expect(toCanvas({ x: 0.5, y: 0.5 }, fit)).toEqual({ x: 160, y: 110 });
    expect(toCanvas({ x: 0, y: 0 }, fit)).toEqual({ x: 0, y: -10 });
  });
});

describe('placeOverlay', () => {
  it('is 100x60 with its eye anchor on the midpoint of the eyes', () => {
    const [right, left] = eyes(0.5, 0.5);
    const placement = placeOverlay(right, left, CAMERA);
    expect(placement).not.toBeNull();
    expect(placement!.width).toBe(OVERLAY_WIDTH);
    expect(placement!.height).toBe(OVERLAY_HEIGHT);
    expect(placement!.pivot).toEqual({ x: 160, y: 110 });
    expect(placement!.x).toBe(160 - OVERLAY_EYE_ANCHOR.x);
    expect(placement!.y).toBe(110 - OVERLAY_EYE_ANCHOR.y);
    expect(placement!.angle).toBe(0);
  });

  it('follows the midpoint of the two landmarks, not either eye', () => {
    const placement = placeOverlay({ x: 0.3, y: 0.4 }, { x: 0.5, y: 0.4 }, CAMERA)!;
    // midpoint x = 0.4 → 128 px; y = 0.4 of 240 px minus the 10 px crop → 86 px
    expect(placement.pivot.x).toBeCloseTo(128);
    expect(placement.pivot.y).toBeCloseTo(86);
    expect(placement.x).toBeCloseTo(78);
    expect(placement.y).toBeCloseTo(50);
  });

  it('maps straight to the canvas when no frame size is given', () => {
    const placement = placeOverlay({ x: 0.25, y: 0.5 }, { x: 0.75, y: 0.5 })!;
    expect(placement.pivot).toEqual({ x: 160, y: 110 });
  });

  it('gives the same box whichever landmark comes first', () => {
    const [right, left] = eyes(0.45, 0.55);
    expect(placeOverlay(left, right, CAMERA)).toEqual(placeOverlay(right, left, CAMERA));
  });

  it('clamps the box inside the canvas near every edge', () => {
    const corners = [eyes(0.02, 0.05, 0.01), eyes(0.98, 0.05, 0.01), eyes(0.02, 0.95, 0.01), eyes(0.98, 0.95, 0.01)];
    for (const [right, left] of corners) {
      const placement = placeOverlay(right, left, CAMERA)!;
      expect(placement).not.toBeNull();
      expect(placement.x).toBeGreaterThanOrEqual(0);
      expect(placement.y).toBeGreaterThanOrEqual(0);
      expect(placement.x + placement.width).toBeLessThanOrEqual(CANVAS_WIDTH);
      expect(placement.y + placement.height).toBeLessThanOrEqual(CANVAS_HEIGHT);
    }
    const topLeft = placeOverlay(...eyes(0.02, 0.05, 0.01), CAMERA)!;
    expect(topLeft.x).toBe(0);
    expect(topLeft.y).toBe(0);
    const bottomRight = placeOverlay(...eyes(0.98, 0.95, 0.01), CAMERA)!;
    expect(bottomRight.x).toBe(CANVAS_WIDTH - OVERLAY_WIDTH);
    expect(bottomRight.y).toBe(CANVAS_HEIGHT - OVERLAY_HEIGHT);
  });

  it('draws nothing when the eyes are cropped out of the canvas', () => {
    // y = 0.02 of a 640x480 frame falls in the 10 px cropped band above the canvas.
    expect(placeOverlay(...eyes(0.5, 0.02), CAMERA)).toBeNull();
    expect(placeOverlay(...eyes(1.2, 0.5), CAMERA)).toBeNull();
    expect(placeOverlay(...eyes(-0.3, 0.5), CAMERA)).toBeNull();
  });

  it('draws nothing without both landmarks or with non-finite coordinates', () => {
    const [right, left] = eyes(0.5, 0.5);
    expect(placeOverlay(undefined, left, CAMERA)).toBeNull();
    expect(placeOverlay(right, null, CAMERA)).toBeNull();
    expect(placeOverlay({ x: Number.NaN, y: 0.5 }, left, CAMERA)).toBeNull();
    expect(placeOverlay(right, { x: 0.6, y: Number.POSITIVE_INFINITY }, CAMERA)).toBeNull();
  });

  it('follows the head tilt, limited to ±45°', () => {
    const tilted = placeOverlay({ x: 0.4, y: 0.45 }, { x: 0.6, y: 0.55 }, CAMERA)!;
    // 0.2 of 320 px across, 0.1 of 240 px down → atan2(24, 64)
    expect(tilted.angle).toBeCloseTo(Math.atan2(24, 64));
    const other = placeOverlay({ x: 0.4, y: 0.55 }, { x: 0.6, y: 0.45 }, CAMERA)!;
    expect(other.angle).toBeCloseTo(-Math.atan2(24, 64));
    const steep = placeOverlay({ x: 0.5, y: 0.3 }, { x: 0.51, y: 0.7 }, CAMERA)!;
    expect(steep.angle).toBeCloseTo(MAX_TILT);
    const same = placeOverlay({ x: 0.5, y: 0.5 }, { x: 0.5, y: 0.5 }, CAMERA)!;
    expect(same.angle).toBe(0);
  });

  it('keeps a bigger overlay than the canvas at the origin instead of going negative', () => {
    const placement = placeOverlay(...eyes(0.5, 0.5), null, { width: 80, height: 40 })!;
    expect(placement.x).toBe(0);
    expect(placement.y).toBe(0);
  });
});
