/**
 * The recorder's state machine (the product states and transitions, "Recorder"), as a pure reducer.
 *
 *   off ──Activer caméra──▶ starting ──camera ready──▶ on ──Démarrer──▶ recording ⇄ paused
 *                             │ (denied → off)                            │  Pause / Reprendre
 *                                                                          ▼
 *   off ◀──Supprimer / Publier ok── stopped ◀──file ready── finishing ◀──Arrêter or timer reaches the duration
 *                                    │
 *                                    └──Recommencer──▶ starting (recording cleared, camera reopened)
 *
 * Before Publier the member names the video: `title`, checked as the upload form's (required, at
 * most TITLE_MAX characters), SPEC's fixed 'Vidéo EVO' until they change it.
 *
 * The screen performs the side effects (getUserMedia, MediaRecorder, upload) and
 * reports their outcome with the `camera*`, `recording*` and `publish*` actions.
 * User messages come out as `notice` (shown by the screen with the toast).
 */

export const DURATIONS = [15, 30, 60] as const;
export type RecordingDuration = (typeof DURATIONS)[number];
export const DEFAULT_DURATION: RecordingDuration = 30;
/** the product API calls, "POST videos/upload": the recorder's title, offered until the member writes theirs */
export const DEFAULT_TITLE = 'Vidéo EVO';
/** the upload's limit (domain LIMITS.titleMax) */
export const TITLE_MAX = 150;

export const MESSAGES = {
  noCamera: 'Caméra non activée',
  nothingToPublish: 'Aucune vidéo à publier !',
  cameraDenied: 'Accès caméra refusé',
  publishFailed: "Échec de l'envoi.",
  published: 'Vidéo publiée !',
  recordingFailed: "L'enregistrement a échoué.",
  /** the upload's own rules (the server answers the same) */
  titleRequired: 'Le titre de la vidéo est obligatoire.',
  titleTooLong: `Le titre ne doit pas dépasser ${TITLE_MAX} caractères.`,
} as const;

export type RecorderPhase =
  /** No camera, no recording. */
  | 'off'
  /** getUserMedia asked, waiting for the answer. */
  | 'starting'
  /** Live camera, ready to record. */
  | 'on'
  | 'recording'
  | 'paused'
  /** Arrêter (or the timer) asked the MediaRecorder to stop; waiting for the file. */
  | 'finishing'
  /** A recorded file is ready: preview, Supprimer, Recommencer, Publier. Camera off. */
  | 'stopped';

export interface Notice {
  /** Increases with every notice, so the same text twice is shown twice. */
  id: number;
  kind: 'success' | 'error';
  text: string;
  /** Second line, e.g. the server's own message. */
  detail?: string;
}

export interface RecorderState {
  phase: RecorderPhase;
  duration: RecordingDuration;
  /** Whole seconds recorded so far (paused time excluded). */
  elapsed: number;
  /** An upload of the recorded file is in flight. */
  publishing: boolean;
  /** The title the video is published under (asked once recorded). */
  title: string;
  notice: Notice | null;
}

export type RecorderAction =
  | { type: 'enableCamera' }
  | { type: 'cameraReady' }
  | { type: 'cameraDenied' }
  /** The camera went away by itself (track ended, unplugged). */
  | { type: 'cameraLost' }
  | { type: 'start' }
  | { type: 'pause' }
  | { type: 'resume' }
  | { type: 'stop' }
  /**
   * The clock moved: `elapsed` is the measured whole seconds of recording
   * (pauses excluded); without it, one more second.
   */
  | { type: 'tick'; elapsed?: number }
  /** The MediaRecorder delivered the file (`empty` when it holds no data). */
  | { type: 'recordingReady'; empty?: boolean }
  | { type: 'recordingFailed' }
  | { type: 'setDuration'; duration: number }
  | { type: 'setTitle'; title: string }
  | { type: 'discard' }
  | { type: 'restart' }
  | { type: 'publish' }
  | { type: 'publishSucceeded' }
  | { type: 'publishFailed'; detail?: string }
  /** The upload was cancelled (screen left): no message. */
  | { type: 'publishCancelled' };

export const initialRecorderState: RecorderState = {
  phase: 'off',
  duration: DEFAULT_DURATION,
  elapsed: 0,
  publishing: false,
  title: DEFAULT_TITLE,
  notice: null,
};

export function isDuration(value: number): value is RecordingDuration {
  return (DURATIONS as readonly number[]).includes(value);
}

// ---------- Derived facts and enabling rules (the product states and transitions) ----------

/** Camera live (on, recording or paused). */
export const hasCamera = (state: RecorderState) =>
  state.phase === 'on' || state.phase === 'recording' || state.phase === 'paused';
/** Recording in progress; paused counts as recording. */
export const isRecording = (state: RecorderState) => state.phase === 'recording' || state.phase === 'paused';
export const isPaused = (state: RecorderState) => state.phase === 'paused';
/** A recorded file is ready. */
export const hasRecording = (state: RecorderState) => state.phase === 'stopped';
export const remainingSeconds = (state: RecorderState) => Math.max(0, state.duration - state.elapsed);
/** What is wrong with the title, as the upload says it; null when it may be published. */
export function titleProblem(title: string): string | null {
  const trimmed = title.trim();
  if (!trimmed) return MESSAGES.titleRequired;
  if (trimmed.length > TITLE_MAX) return MESSAGES.titleTooLong;
  return null;
}

export interface RecorderControls {
  enableCamera: boolean;
  start: boolean;
  pause: boolean;
  resume: boolean;
  stop: boolean;
  discard: boolean;
  restart: boolean;
  publish: boolean;
  duration: boolean;
  title: boolean;
}

/** Which buttons are enabled. */
export function controlsFor(state: RecorderState): RecorderControls {
  const recording = isRecording(state);
  const ready = hasRecording(state) && !state.publishing;
  return {
    // A finished recording is cleared with Supprimer / Recommencer first.
    enableCamera: state.phase === 'off',
    // Disabled without a camera or while recording.
    start: hasCamera(state) && !recording,
    // Only while recording and not paused.
    pause: state.phase === 'recording',
    // Only while paused.
    resume: state.phase === 'paused',
    // Only while recording (paused counts).
    stop: recording,
    // Disabled without a recording (and during its upload).
    discard: ready,
    restart: ready,
    publish: ready,
    // The maximum duration is chosen before recording.
    duration: !recording && state.phase !== 'finishing',
    // Named once recorded, until it is sent.
    title: ready,
  };
}

// ---------- Reducer ----------

function notify(state: RecorderState, kind: Notice['kind'], text: string, detail?: string): Notice {
  const notice: Notice = { id: (state.notice?.id ?? 0) + 1, kind, text };
  if (detail && detail !== text) notice.detail = detail;
  return notice;
}

/** Back to "no camera, no recording", keeping the chosen duration and the last notice; the next video gets the default title. */
function cleared(state: RecorderState): RecorderState {
  return { ...state, phase: 'off', elapsed: 0, publishing: false, title: DEFAULT_TITLE };
}

export function recorderReducer(state: RecorderState, action: RecorderAction): RecorderState {
  switch (action.type) {
    case 'enableCamera':
      return state.phase === 'off' ? { ...state, phase: 'starting', elapsed: 0 } : state;

    case 'cameraReady':
      return state.phase === 'starting' ? { ...state, phase: 'on', elapsed: 0 } : state;

    case 'cameraDenied':
      return state.phase === 'starting'
        ? { ...state, phase: 'off', notice: notify(state, 'error', MESSAGES.cameraDenied) }
        : state;

    case 'cameraLost':
      if (state.phase === 'on' || state.phase === 'starting') return { ...state, phase: 'off' };
      // What was recorded so far is kept: the recorder is stopped and the file delivered.
      if (isRecording(state)) return { ...state, phase: 'finishing' };
      return state;

    case 'start':
      if (isRecording(state) || state.phase === 'finishing') return state;
      if (!hasCamera(state)) return { ...state, notice: notify(state, 'error', MESSAGES.noCamera) };
      return { ...state, phase: 'recording', elapsed: 0 };

    case 'pause':
      return state.phase === 'recording' ? { ...state, phase: 'paused' } : state;

    case 'resume':
      return state.phase === 'paused' ? { ...state, phase: 'recording' } : state;

    case 'stop':
      return isRecording(state) ? { ...state, phase: 'finishing' } : state;

    case 'tick': {
      if (state.phase !== 'recording') return state; // a paused clock does not move
      const measured = action.elapsed ?? state.elapsed + 1;
      if (!Number.isFinite(measured)) return state;
      // Never backwards, never past the chosen duration.
      const elapsed = Math.min(state.duration, Math.max(state.elapsed, Math.floor(measured)));
      if (elapsed === state.elapsed) return state;
      return { ...state, elapsed, phase: elapsed >= state.duration ? 'finishing' : 'recording' };
    }

    case 'recordingReady':
      if (state.phase !== 'finishing') return state;
      return action.empty
        ? { ...cleared(state), notice: notify(state, 'error', MESSAGES.recordingFailed) }
        : { ...state, phase: 'stopped' };

    case 'recordingFailed':
      return isRecording(state) || state.phase === 'finishing'
        ? { ...cleared(state), notice: notify(state, 'error', MESSAGES.recordingFailed) }
        : state;

    case 'setDuration':
      if (!isDuration(action.duration) || !controlsFor(state).duration) return state;
      return { ...state, duration: action.duration };

    case 'setTitle':
      return controlsFor(state).title ? { ...state, title: action.title } : state;

    case 'discard':
      return hasRecording(state) && !state.publishing ? cleared(state) : state;

    case 'restart':
      return hasRecording(state) && !state.publishing ? { ...cleared(state), phase: 'starting' } : state;

    case 'publish': {
      if (!hasRecording(state)) return { ...state, notice: notify(state, 'error', MESSAGES.nothingToPublish) };
      if (state.publishing) return state;
      const problem = titleProblem(state.title);
      return problem ? { ...state, notice: notify(state, 'error', problem) } : { ...state, publishing: true };
    }

    case 'publishSucceeded':
      return state.publishing ? { ...cleared(state), notice: notify(state, 'success', MESSAGES.published) } : state;

    case 'publishFailed':
      return state.publishing
        ? { ...state, publishing: false, notice: notify(state, 'error', MESSAGES.publishFailed, action.detail) }
        : state;

    case 'publishCancelled':
      return state.publishing ? { ...state, publishing: false } : state;
  }
}
