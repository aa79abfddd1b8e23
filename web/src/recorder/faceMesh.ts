import type { FaceMesh, NormalizedLandmarkList, Results } from '@mediapipe/face_mesh';

/**
 * MediaPipe Face Mesh, loaded on demand (only the recorder calls this, so
 * neither the code nor the ~16 MB of wasm/model files reach other pages).
 *
 * `@mediapipe/face_mesh` is a closure-compiled global script: it has no ES/CJS
 * exports, it assigns `FaceMesh` to the global object when it runs. Bundled as
 * a module it may be dropped (its package.json says `"sideEffects": []`) or see
 * a module-local `this`, so it is not bundled at all: the app serves the
 * package's files itself under /mediapipe/face_mesh/ (web/vite.config.ts copies
 * them into web/dist and serves them in dev) and this module adds the script
 * once, then reads `window.FaceMesh`. Its wasm, data and graph files are
 * fetched by the script from the same folder through `locateFile`. No CDN.
 */

export const FACE_MESH_BASE = '/mediapipe/face_mesh/';
const SCRIPT_URL = `${FACE_MESH_BASE}face_mesh.js`;

/** the product validation rules and the product business constants: one face, confidence 0.5 for detection and tracking. */
export const FACE_MESH_OPTIONS = {
  maxNumFaces: 1,
  minDetectionConfidence: 0.5,
  minTrackingConfidence: 0.5,
} as const;

type FaceMeshConstructor = typeof FaceMesh;

let scriptPromise: Promise<FaceMeshConstructor> | null = null;

function readGlobal(): FaceMeshConstructor | undefined {
  const candidate = (window as unknown as { FaceMesh?: unknown }).FaceMesh;
  return typeof candidate === 'function' ? (candidate as FaceMeshConstructor) : undefined;
}

/** Adds /mediapipe/face_mesh/face_mesh.js once and resolves with the global `FaceMesh`. */
function loadFaceMeshScript(): Promise<FaceMeshConstructor> {
  const ready = readGlobal();
  if (ready) return Promise.resolve(ready);
  scriptPromise ??= new Promise<FaceMeshConstructor>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SCRIPT_URL;
    script.async = true;
    script.crossOrigin = 'anonymous';
    script.dataset.evo = 'face-mesh';
    script.onload = () => {
      const ctor = readGlobal();
      if (ctor) resolve(ctor);
      else reject(new Error('FaceMesh absent après chargement du script'));
    };
    script.onerror = () => reject(new Error(`Chargement impossible : ${SCRIPT_URL}`));
    document.head.append(script);
  }).catch((err: unknown) => {
    scriptPromise = null; // allow a retry on the next visit
    document.querySelector('script[data-evo="face-mesh"]')?.remove();
    throw err;
  });
  return scriptPromise;
}

export interface FaceTracker {
  /** Sends one frame; the latest landmarks arrive through `onFace`. */
  send: (image: HTMLVideoElement | HTMLCanvasElement) => Promise<void>;
  close: () => Promise<void>;
}

/**
 * Creates and initialises a face mesh (downloads the model on first use).
 * `onFace` receives the landmarks of the single face, or null when none is seen.
 */
export async function createFaceTracker(onFace: (landmarks: NormalizedLandmarkList | null) => void) {
  const FaceMeshCtor = await loadFaceMeshScript();
  const mesh = new FaceMeshCtor({ locateFile: (file: string) => FACE_MESH_BASE + file });
  mesh.setOptions({ ...FACE_MESH_OPTIONS });
  mesh.onResults((results: Results) => onFace(results.multiFaceLandmarks?.[0] ?? null));
  try {
    await mesh.initialize();
  } catch (err) {
    await mesh.close().catch(() => undefined);
    throw err;
  }
  const tracker: FaceTracker = {
    send: (image) => mesh.send({ image }),
    close: () => mesh.close(),
  };
  return tracker;
}
