import { useCallback, useEffect, useRef, useState } from 'react';
import type { NormalizedLandmarkList } from '@mediapipe/face_mesh';
import type { FaceTracker } from './faceMesh';

export type FaceTrackerStatus = 'idle' | 'loading' | 'ready' | 'error';

/**
 * At most ~20 detections a second, and on a slow device a pause of twice the
 * last detection's duration, so the page (buttons, clock, drawing) stays
 * responsive. The overlay keeps the latest landmarks in between.
 */
const MIN_SEND_INTERVAL_MS = 50;
const COOL_DOWN_FACTOR = 2;

/**
 * Face Mesh for the recorder, created on the first `load()` (the camera being
 * switched on) and closed when the screen goes away. `track(video)` sends the
 * current frame when the previous one is done; the latest landmarks are in
 * `landmarksRef` (null without a face).
 */
export function useFaceTracker() {
  const [status, setStatus] = useState<FaceTrackerStatus>('idle');
  const [faceSeen, setFaceSeen] = useState(false);
  const landmarksRef = useRef<NormalizedLandmarkList | null>(null);
  const trackerRef = useRef<FaceTracker | null>(null);
  const pendingRef = useRef<Promise<unknown> | null>(null);
  const busyRef = useRef(false);
  const nextSendRef = useRef(0);
  const mountedRef = useRef(false);

  useEffect(() => {
    mountedRef.current = true;
    return () => {
      mountedRef.current = false;
      pendingRef.current = null;
      landmarksRef.current = null;
      const tracker = trackerRef.current;
      trackerRef.current = null;
      void tracker?.close().catch(() => undefined);
    };
  }, []);

  const load = useCallback(() => {
    if (trackerRef.current || pendingRef.current) return;
    setStatus('loading');
    const pending = import('./faceMesh').then(({ createFaceTracker }) =>
      createFaceTracker((landmarks) => {
        landmarksRef.current = landmarks;
        if (mountedRef.current) setFaceSeen(landmarks !== null);
      }),
    );
    pendingRef.current = pending;
    pending.then(
      (tracker) => {
        if (!mountedRef.current || pendingRef.current !== pending) {
          void tracker.close().catch(() => undefined);
          return;
        }
        pendingRef.current = null;
        trackerRef.current = tracker;
        setStatus('ready');
      },
      () => {
        if (pendingRef.current !== pending) return;
        pendingRef.current = null;
        if (mountedRef.current) setStatus('error');
      },
    );
  }, []);

  const track = useCallback((video: HTMLVideoElement) => {
    const tracker = trackerRef.current;
    if (!tracker || busyRef.current || video.readyState < HTMLMediaElement.HAVE_CURRENT_DATA) return;
    const startedAt = performance.now();
    if (startedAt < nextSendRef.current) return;
    busyRef.current = true;
    tracker
      .send(video)
      .catch(() => {
        // A broken graph would fail on every frame: stop using it, keep recording without overlay.
        if (trackerRef.current !== tracker) return;
        trackerRef.current = null;
        landmarksRef.current = null;
        void tracker.close().catch(() => undefined);
        if (mountedRef.current) {
          setFaceSeen(false);
          setStatus('error');
        }
      })
      .finally(() => {
        const finishedAt = performance.now();
        nextSendRef.current =
          startedAt + Math.max(MIN_SEND_INTERVAL_MS, (finishedAt - startedAt) * (1 + COOL_DOWN_FACTOR));
        busyRef.current = false;
      });
  }, []);

  /** Forgets the last face (camera switched off). */
  const forget = useCallback(() => {
    landmarksRef.current = null;
    setFaceSeen(false);
  }, []);

  return { status, faceSeen, landmarksRef, load, track, forget };
}
