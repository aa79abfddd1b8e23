/**
 * Camera, microphone and MediaRecorder helpers shared by the recorder and the
 * camera test page. Browser-only (no React).
 */

/** the product business constants: front camera at 640x480. */
export const CAMERA_CONSTRAINTS: MediaTrackConstraints = {
  facingMode: 'user',
  width: 640,
  height: 480,
};

/** Preferred recording formats, best first (the product business constants: webm). */
export const RECORDING_TYPES = [
  'video/webm;codecs=vp8,opus',
  'video/webm;codecs=vp9,opus',
  'video/webm;codecs=vp8',
  'video/webm;codecs=vp9',
  'video/webm',
] as const;

function getUserMedia(constraints: MediaStreamConstraints): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) {
    return Promise.reject(new DOMException('Caméra indisponible dans ce contexte', 'NotSupportedError'));
  }
  return navigator.mediaDevices.getUserMedia(constraints);
}

/**
 * Front camera with the microphone; when the microphone is refused or missing,
 * the camera alone (the video is then recorded without sound). Rejects when the
 * camera itself is refused or absent.
 */
export async function openCameraWithMicrophone(
  video: MediaTrackConstraints = CAMERA_CONSTRAINTS,
): Promise<MediaStream> {
  try {
    return await getUserMedia({ video, audio: true });
  } catch {
    return getUserMedia({ video, audio: false });
  }
}

/** Front camera without sound (camera test page). */
export function openCameraOnly(): Promise<MediaStream> {
  return getUserMedia({ video: CAMERA_CONSTRAINTS, audio: false });
}

export function stopStream(stream: MediaStream | null | undefined) {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

/** The first webm variant this browser can record, or undefined to let it choose. */
export function pickRecordingType(
  isSupported: (type: string) => boolean = (type) =>
    typeof MediaRecorder !== 'undefined' && MediaRecorder.isTypeSupported(type),
): string | undefined {
  return RECORDING_TYPES.find((type) => isSupported(type));
}

/** "video/webm;codecs=vp8,opus" → "video/webm" (what the uploaded file declares). */
export function baseType(type: string | undefined, fallback = 'video/webm'): string {
  const base = type?.split(';')[0]?.trim();
  return base ? base : fallback;
}
