import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { ApiError, isAbortError } from '../api/http';
import { useCurrentUser } from '../identity/sessionContext';
import { useToast } from '../shell/toast';
import { ProgressBar } from '../shell/ui/ProgressBar';
import { uploadVideo } from '../videos/uploadApi';
import { drawFrame } from './drawFrame';
import { FilterPicker } from './FilterPicker';
import { FACE_FILTERS, type FilterId } from './filters';
import { startFrameLoop } from './frameLoop';
import { baseType, openCameraWithMicrophone, pickRecordingType, stopStream } from './media';
import {
  DURATIONS,
  TITLE_MAX,
  controlsFor,
  initialRecorderState,
  isRecording,
  recorderReducer,
  remainingSeconds,
  titleProblem,
} from './recorderState';
import { recordingFrame } from './recordingFrame';
import { RecordingPreview } from './RecordingPreview';
import { useFaceTracker, type FaceTrackerStatus } from './useFaceTracker';
import { RestrictionNotice } from '../moderation/RestrictionNotice';
import { refreshAfterRefusal, useRestriction } from '../moderation/useMyModeration';
import './recorder.css';

/** the product API calls, "POST videos/upload", recorder fields (the title is the member's, 'Vidéo EVO' by default). */
const UPLOAD_DESCRIPTION = 'Vidéo enregistrée avec EVO';
const UPLOAD_FILE_NAME = 'enregistrement.webm';
/** Frames per second of the recorded canvas. */
const CAPTURE_FPS = 30;
/** How often the clock is read; it shows whole seconds. */
const CLOCK_POLL_MS = 200;

const TRACKER_TEXT: Record<FaceTrackerStatus, string> = {
  idle: 'Les filtres suivent ton visage une fois la caméra activée.',
  loading: 'Chargement de la détection du visage...',
  ready: 'Détection du visage prête.',
  error: 'Détection du visage indisponible : la vidéo est enregistrée sans filtre.',
};

interface LiveMedia {
  camera: MediaStream | null;
  stopLoop: (() => void) | null;
  recorder: MediaRecorder | null;
  canvasStream: MediaStream | null;
}

/** Preloads the 8 overlay images (same origin, so the canvas stays recordable). */
function useOverlayImages() {
  const imagesRef = useRef<Map<FilterId, HTMLImageElement> | null>(null);
  useEffect(() => {
    const images = new Map<FilterId, HTMLImageElement>();
    for (const filter of FACE_FILTERS) {
      const image = new Image(100, 60);
      image.decoding = 'async';
      image.src = filter.src;
      images.set(filter.id, image);
    }
    imagesRef.current = images;
    return () => {
      imagesRef.current = null;
    };
  }, []);
  return imagesRef;
}

/** the product screens, "Create video (/create)": camera recorder with face overlays. */
export default function RecorderScreen() {
  // a restriction from publishing (issue 32): shown before the member records for nothing
  const restricted = useRestriction('upload');
  const { user } = useCurrentUser();
  const toast = useToast();
  const [state, dispatch] = useReducer(recorderReducer, initialRecorderState);
  const [recording, setRecording] = useState<Blob | null>(null);
  const [filter, setFilter] = useState<FilterId | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  // vertical on a phone held upright, as of when the camera opens (the canvas keeps its size while recording)
  const [frame, setFrame] = useState(() => recordingFrame({ width: window.innerWidth, height: window.innerHeight }));
  const titleRef = useRef<HTMLInputElement>(null);
  const publishRef = useRef<HTMLFormElement>(null);
  const face = useFaceTracker();
  const images = useOverlayImages();

  const videoRef = useRef<HTMLVideoElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const mediaRef = useRef<LiveMedia>({ camera: null, stopLoop: null, recorder: null, canvasStream: null });
  const filterRef = useRef<FilterId | null>(filter);
  const mountedRef = useRef(false);
  const abortRef = useRef<AbortController | null>(null);
  const shownNotice = useRef(0);
  /** Recording time in ms, pauses excluded: `activeMs` so far plus the running stretch since `since`. */
  const clockRef = useRef({ activeMs: 0, since: 0 });

  const controls = controlsFor(state);
  const recordingNow = isRecording(state);
  const { load: loadFaceTracker, track: trackFace, forget: forgetFace, landmarksRef } = face;

  useEffect(() => {
    filterRef.current = filter;
  }, [filter]);

  // Messages of the state machine go through the app's toasts.
  useEffect(() => {
    const notice = state.notice;
    if (!notice || notice.id === shownNotice.current) return;
    shownNotice.current = notice.id;
    toast.show(notice.kind, notice.text, notice.detail ? { detail: notice.detail } : undefined);
  }, [state.notice, toast]);

  /** Stops the camera and microphone tracks and the drawing loop. */
  const releaseCamera = useCallback(() => {
    const media = mediaRef.current;
    media.stopLoop?.();
    media.stopLoop = null;
    stopStream(media.camera);
    media.camera = null;
    if (videoRef.current) videoRef.current.srcObject = null;
    // No stale frame once the camera is off (the recorder's stream is already stopped here).
    const canvas = canvasRef.current;
    canvas?.getContext('2d')?.clearRect(0, 0, canvas.width, canvas.height);
    forgetFace();
  }, [forgetFace]);

  // Leaving the screen: stop everything, cancel an upload in flight.
  useEffect(() => {
    mountedRef.current = true;
    const media = mediaRef.current;
    return () => {
      mountedRef.current = false;
      abortRef.current?.abort();
      if (media.recorder && media.recorder.state !== 'inactive') {
        media.recorder.ondataavailable = null;
        media.recorder.onstop = null;
        media.recorder.stop();
      }
      media.recorder = null;
      stopStream(media.canvasStream);
      media.canvasStream = null;
      media.stopLoop?.();
      media.stopLoop = null;
      stopStream(media.camera);
      media.camera = null;
    };
  }, []);

  /** getUserMedia, then the canvas loop (camera frame + overlay, face tracking). */
  const openCamera = useCallback(async () => {
    const shape = recordingFrame({ width: window.innerWidth, height: window.innerHeight });
    setFrame(shape);
    let stream: MediaStream;
    try {
      stream = await openCameraWithMicrophone(shape.camera);
    } catch {
      if (mountedRef.current) dispatch({ type: 'cameraDenied' });
      return;
    }
    const video = videoRef.current;
    const canvas = canvasRef.current;
    const context = canvas?.getContext('2d');
    if (!mountedRef.current || !video || !canvas || !context) {
      stopStream(stream);
      return;
    }
    const media = mediaRef.current;
    stopStream(media.camera);
    media.stopLoop?.();
    media.camera = stream;
    video.srcObject = stream;
    await video.play().catch(() => undefined); // muted: autoplay is allowed
    for (const track of stream.getVideoTracks()) {
      track.addEventListener('ended', () => {
        if (mountedRef.current && mediaRef.current.camera === stream) dispatch({ type: 'cameraLost' });
      });
    }
    media.stopLoop = startFrameLoop(() => {
      const id = filterRef.current;
      drawFrame(context, video, id ? (images.current?.get(id) ?? null) : null, landmarksRef.current);
      trackFace(video);
    });
    dispatch({ type: 'cameraReady' });
    loadFaceTracker(); // first time only: downloads Face Mesh (this page only)
  }, [images, landmarksRef, loadFaceTracker, trackFace]);

  /** Records the canvas (overlay burned in) plus the microphone. */
  const startRecorder = useCallback(() => {
    const media = mediaRef.current;
    const canvas = canvasRef.current;
    if (!canvas || !media.camera) throw new Error('Caméra non activée');
    const canvasStream = canvas.captureStream(CAPTURE_FPS);
    const stream = new MediaStream([...canvasStream.getVideoTracks(), ...media.camera.getAudioTracks()]);
    const mimeType = pickRecordingType();
    const recorder = new MediaRecorder(stream, mimeType ? { mimeType } : undefined);
    const chunks: Blob[] = [];
    recorder.ondataavailable = (event) => {
      if (event.data.size > 0) chunks.push(event.data);
    };
    recorder.onstop = () => {
      if (media.recorder === recorder) media.recorder = null;
      stopStream(canvasStream);
      if (media.canvasStream === canvasStream) media.canvasStream = null;
      releaseCamera(); // the product states and transitions: camera tracks stopped once recording ends
      if (!mountedRef.current) return;
      const blob = new Blob(chunks, { type: baseType(recorder.mimeType || mimeType) });
      setRecording(blob.size > 0 ? blob : null);
      dispatch({ type: 'recordingReady', empty: blob.size === 0 });
    };
    recorder.onerror = () => {
      if (recorder.state !== 'inactive') recorder.stop();
    };
    media.canvasStream = canvasStream;
    media.recorder = recorder;
    recorder.start(1000);
  }, [releaseCamera]);

  // The MediaRecorder follows the state machine (Démarrer, Pause, Reprendre, Arrêter or the timer).
  useEffect(() => {
    const media = mediaRef.current;
    const recorder = media.recorder;
    switch (state.phase) {
      case 'recording':
        if (!recorder) {
          clockRef.current = { activeMs: 0, since: performance.now() };
          try {
            startRecorder();
          } catch {
            stopStream(media.canvasStream);
            media.canvasStream = null;
            media.recorder = null;
            releaseCamera();
            dispatch({ type: 'recordingFailed' });
          }
        } else if (recorder.state === 'paused') {
          clockRef.current.since = performance.now();
          recorder.resume();
        }
        break;
      case 'paused':
        if (recorder?.state === 'recording') {
          recorder.pause();
          clockRef.current.activeMs += performance.now() - clockRef.current.since;
        }
        break;
      case 'finishing':
        if (recorder && recorder.state !== 'inactive') recorder.stop();
        break;
      case 'off':
        if (media.camera) releaseCamera();
        break;
      default:
        break;
    }
  }, [state.phase, startRecorder, releaseCamera]);

  // The recording is ready: its title and Publier come into view (on a phone they sit under the preview).
  useEffect(() => {
    if (state.phase === 'stopped') publishRef.current?.scrollIntoView({ block: 'nearest' });
  }, [state.phase]);

  // The clock ticks every second while recording (measured, so a busy page does not slow it); pause stops it.
  useEffect(() => {
    if (state.phase !== 'recording') return;
    const timer = window.setInterval(() => {
      const clock = clockRef.current;
      dispatch({ type: 'tick', elapsed: (clock.activeMs + performance.now() - clock.since) / 1000 });
    }, CLOCK_POLL_MS);
    return () => window.clearInterval(timer);
  }, [state.phase]);

  const onEnableCamera = () => {
    if (!controls.enableCamera) return;
    dispatch({ type: 'enableCamera' });
    void openCamera();
  };

  const onStart = () => dispatch({ type: 'start' }); // without a camera: 'Caméra non activée'

  const onDiscard = () => {
    if (!controls.discard) return;
    dispatch({ type: 'discard' });
    setRecording(null);
  };

  const onRestart = () => {
    if (!controls.restart) return;
    dispatch({ type: 'restart' });
    setRecording(null);
    void openCamera();
  };

  const onPublish = async () => {
    if (restricted) return;
    if (!controls.publish || !recording || titleProblem(state.title)) {
      // nothing recorded: 'Aucune vidéo à publier !'; no title: the upload's message, at the field
      dispatch({ type: 'publish' });
      if (recording) titleRef.current?.focus();
      return;
    }
    dispatch({ type: 'publish' });
    const controller = new AbortController();
    abortRef.current = controller;
    setProgress(0);
    try {
      await uploadVideo(
        {
          file: new File([recording], UPLOAD_FILE_NAME, { type: recording.type || 'video/webm' }),
          title: state.title.trim(),
          description: UPLOAD_DESCRIPTION,
          email: user?.email || 'anonymous',
          pseudo: user?.pseudo || 'inconnu',
        },
        setProgress,
        controller.signal,
      );
      if (!mountedRef.current) return;
      setRecording(null);
      dispatch({ type: 'publishSucceeded' });
    } catch (err) {
      if (!mountedRef.current) return;
      if (isAbortError(err)) dispatch({ type: 'publishCancelled' });
      else dispatch({ type: 'publishFailed', detail: err instanceof ApiError ? err.serverMessage : undefined });
      refreshAfterRefusal(err);
    } finally {
      if (abortRef.current === controller) abortRef.current = null;
      if (mountedRef.current) setProgress(null);
    }
  };

  const chosen = FACE_FILTERS.find((item) => item.id === filter);
  const showPreview = state.phase === 'stopped' && recording !== null;
  const stageText =
    state.phase === 'off'
      ? 'Caméra désactivée'
      : state.phase === 'starting'
        ? 'Activation de la caméra...'
        : state.phase === 'finishing'
          ? "Finalisation de l'enregistrement..."
          : null;

  const portrait = frame.orientation === 'portrait';
  // one main button: Démarrer, then Arrêter in its place while recording; Pause and Reprendre share one spot
  const stopShown = recordingNow || state.phase === 'finishing';
  const cameraFirst = state.phase === 'off' || state.phase === 'starting';

  // once recorded, naming and publishing come first, right under the preview (the deck has nothing to offer then)
  const publishFirst = state.phase === 'stopped' || state.publishing;
  const publishForm = (
    <form
      ref={publishRef}
      className="recorder__publish"
      // the reducer says what is wrong with the title, in the app's words (not the browser's bubble)
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void onPublish();
      }}
    >
      {controls.title || state.publishing ? (
        <div className="field">
          <label htmlFor="recorder-title-input">Titre de la vidéo</label>
          <input
            id="recorder-title-input"
            ref={titleRef}
            type="text"
            required
            maxLength={TITLE_MAX}
            value={state.title}
            disabled={!controls.title}
            aria-invalid={titleProblem(state.title) ? true : undefined}
            onFocus={(event) => event.currentTarget.select()}
            onChange={(event) => dispatch({ type: 'setTitle', title: event.target.value })}
          />
        </div>
      ) : null}
      <div className="recorder__controls recorder__controls--after" role="group" aria-label="Vidéo enregistrée">
        <button type="button" className="btn btn--ghost btn--small" disabled={!controls.discard} onClick={onDiscard}>
          Supprimer
        </button>
        <button type="button" className="btn btn--ghost btn--small" disabled={!controls.restart} onClick={onRestart}>
          Recommencer
        </button>
        <button type="submit" className="btn btn--primary" disabled={!controls.publish || restricted !== null}>
          {state.publishing ? 'Envoi en cours...' : 'Publier'}
        </button>
      </div>
    </form>
  );

  return (
    <section className="page recorder" aria-labelledby="recorder-title">
      <title>Créer une Vidéo · EVO</title>
      <h1 id="recorder-title">Créer une Vidéo</h1>

      <div className="recorder__layout">
        <div className="recorder__main">
          <div
            className={[
              'recorder__stage',
              portrait ? 'recorder__stage--portrait' : '',
              recordingNow ? 'recorder__stage--recording' : '',
            ]
              .filter(Boolean)
              .join(' ')}
            style={{ aspectRatio: `${frame.canvas.width} / ${frame.canvas.height}` }}
            data-recording={recordingNow}
            data-orientation={frame.orientation}
          >
            <video ref={videoRef} className="recorder__source" muted playsInline aria-hidden="true" tabIndex={-1} />
            <canvas
              ref={canvasRef}
              className="recorder__canvas"
              width={frame.canvas.width}
              height={frame.canvas.height}
              hidden={showPreview}
              role="img"
              aria-label={
                chosen ? `Image de la caméra avec le filtre ${chosen.name}` : 'Image de la caméra sans filtre'
              }
            />
            {showPreview ? <RecordingPreview blob={recording} /> : null}
            {stageText && !showPreview ? (
              <p className="recorder__stage-text" aria-hidden="true">
                {stageText}
              </p>
            ) : null}
            {recordingNow ? (
              <span
                className={state.phase === 'paused' ? 'recorder__badge recorder__badge--paused' : 'recorder__badge'}
              >
                {state.phase === 'paused' ? 'En pause' : 'Enregistrement'}
              </span>
            ) : null}
          </div>

          <p className="recorder__timer" role="timer" aria-label="Durée de l'enregistrement">
            <span>
              Écoulé : <strong>{state.elapsed} s</strong>
            </span>
            <span>
              Restant : <strong>{remainingSeconds(state)} s</strong>
            </span>
          </p>

          {publishFirst ? publishForm : null}
          <div className="recorder__controls recorder__deck" role="group" aria-label="Caméra et enregistrement">
            <div className="recorder__deck-side">
              {state.phase === 'paused' ? (
                <button
                  type="button"
                  className="btn btn--secondary btn--small"
                  disabled={!controls.resume}
                  onClick={() => dispatch({ type: 'resume' })}
                >
                  Reprendre
                </button>
              ) : (
                <button
                  type="button"
                  className="btn btn--secondary btn--small"
                  disabled={!controls.pause}
                  onClick={() => dispatch({ type: 'pause' })}
                >
                  Pause
                </button>
              )}
            </div>
            {stopShown ? (
              <button
                type="button"
                className="recorder__record recorder__record--stop"
                disabled={!controls.stop}
                onClick={() => dispatch({ type: 'stop' })}
              >
                <span className="recorder__record-mark" aria-hidden="true" />
                <span className="recorder__record-label">Arrêter</span>
              </button>
            ) : (
              <button type="button" className="recorder__record" disabled={!controls.start} onClick={onStart}>
                <span className="recorder__record-mark" aria-hidden="true" />
                <span className="recorder__record-label">Démarrer</span>
              </button>
            )}
            <div className="recorder__deck-side">
              <button
                type="button"
                // the only way forward while the camera is off: it leads until then
                className={cameraFirst ? 'btn btn--primary btn--small' : 'btn btn--secondary btn--small'}
                disabled={!controls.enableCamera}
                onClick={onEnableCamera}
              >
                Activer caméra
              </button>
            </div>
          </div>
          {publishFirst ? null : publishForm}
          <RestrictionNotice message={restricted} />
          {state.publishing ? <ProgressBar value={progress ?? 0} label="Envoi de la vidéo" /> : null}
        </div>

        <div className="recorder__side">
          <div className="field recorder__duration">
            <label htmlFor="recorder-duration">Durée maximale</label>
            <select
              id="recorder-duration"
              value={state.duration}
              disabled={!controls.duration}
              onChange={(event) => dispatch({ type: 'setDuration', duration: Number(event.target.value) })}
            >
              {DURATIONS.map((seconds) => (
                <option key={seconds} value={seconds}>
                  {seconds} secondes
                </option>
              ))}
            </select>
          </div>

          <FilterPicker value={filter} onChange={setFilter} />
          <p className="recorder__face-status" role="status" data-status={face.status}>
            {TRACKER_TEXT[face.status]}
          </p>
          {face.status === 'ready' && (state.phase === 'on' || recordingNow) ? (
            <p className="recorder__face-seen" data-face={face.faceSeen}>
              {face.faceSeen ? 'Visage détecté : le filtre suit tes yeux.' : 'Aucun visage détecté.'}
            </p>
          ) : null}
        </div>
      </div>
    </section>
  );
}
