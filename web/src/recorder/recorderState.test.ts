import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DURATION,
  MESSAGES,
  controlsFor,
  hasCamera,
  hasRecording,
  initialRecorderState,
  isPaused,
  isRecording,
  recorderReducer,
  remainingSeconds,
  type RecorderAction,
  type RecorderControls,
  type RecorderPhase,
  type RecorderState,
  TITLE_MAX,
  titleProblem,
} from './recorderState';
import { recordingFrame } from './recordingFrame';

const run = (state: RecorderState, ...actions: RecorderAction[]) => actions.reduce(recorderReducer, state);
const at = (phase: RecorderPhase, extra: Partial<RecorderState> = {}): RecorderState => ({
  ...initialRecorderState,
  phase,
  ...extra,
});

const ALL_PHASES: RecorderPhase[] = ['off', 'starting', 'on', 'recording', 'paused', 'finishing', 'stopped'];

const cameraOn = () => run(initialRecorderState, { type: 'enableCamera' }, { type: 'cameraReady' });
const recording = () => run(cameraOn(), { type: 'start' });
const stopped = () =>
  run(recording(), { type: 'tick' }, { type: 'tick' }, { type: 'stop' }, { type: 'recordingReady' });

describe('recorder: initial state', () => {
  it('starts camera off, 30 s, nothing recorded, no message', () => {
    expect(initialRecorderState).toEqual({
      phase: 'off',
      duration: 30,
      elapsed: 0,
      publishing: false,
      title: 'Vidéo EVO',
      notice: null,
    });
    expect(DEFAULT_DURATION).toBe(30);
    expect(remainingSeconds(initialRecorderState)).toBe(30);
  });
});

describe('recorder: transitions', () => {
  it('Activer caméra: off → starting → on', () => {
    const starting = run(initialRecorderState, { type: 'enableCamera' });
    expect(starting.phase).toBe('starting');
    expect(run(starting, { type: 'cameraReady' }).phase).toBe('on');
  });

  it('camera denied: starting → off with "Accès caméra refusé"', () => {
    const state = run(initialRecorderState, { type: 'enableCamera' }, { type: 'cameraDenied' });
    expect(state.phase).toBe('off');
    expect(state.notice).toMatchObject({ kind: 'error', text: 'Accès caméra refusé' });
  });

  it('ignores late camera answers outside "starting"', () => {
    for (const phase of ALL_PHASES.filter((p) => p !== 'starting')) {
      expect(run(at(phase), { type: 'cameraReady' })).toEqual(at(phase));
      expect(run(at(phase), { type: 'cameraDenied' })).toEqual(at(phase));
    }
  });

  it('Activer caméra does nothing unless the camera is off', () => {
    for (const phase of ALL_PHASES.filter((p) => p !== 'off')) {
      expect(run(at(phase), { type: 'enableCamera' })).toEqual(at(phase));
    }
  });

  it('Démarrer: on → recording, from 0 s', () => {
    const state = recording();
    expect(state.phase).toBe('recording');
    expect(state.elapsed).toBe(0);
    expect(state.notice).toBeNull();
  });

  it('Démarrer without a camera gives "Caméra non activée" and stays put', () => {
    for (const phase of ['off', 'starting', 'stopped'] as const) {
      const state = run(at(phase), { type: 'start' });
      expect(state.phase).toBe(phase);
      expect(state.notice).toMatchObject({ kind: 'error', text: 'Caméra non activée' });
    }
  });

  it('Démarrer while recording, paused or finishing changes nothing', () => {
    for (const phase of ['recording', 'paused', 'finishing'] as const) {
      const state = at(phase, { elapsed: 4 });
      expect(run(state, { type: 'start' })).toEqual(state);
    }
  });

  it('Pause: recording → paused; Reprendre: paused → recording', () => {
    const paused = run(recording(), { type: 'tick' }, { type: 'pause' });
    expect(paused.phase).toBe('paused');
    expect(paused.elapsed).toBe(1);
    const resumed = run(paused, { type: 'resume' });
    expect(resumed.phase).toBe('recording');
    expect(resumed.elapsed).toBe(1);
  });

  it('Pause and Reprendre only apply to their own phase', () => {
    for (const phase of ALL_PHASES.filter((p) => p !== 'recording')) {
      expect(run(at(phase), { type: 'pause' })).toEqual(at(phase));
    }
    for (const phase of ALL_PHASES.filter((p) => p !== 'paused')) {
      expect(run(at(phase), { type: 'resume' })).toEqual(at(phase));
    }
  });

  it('Arrêter: recording or paused → finishing → stopped once the file is ready', () => {
    for (const phase of ['recording', 'paused'] as const) {
      const finishing = run(at(phase, { elapsed: 3 }), { type: 'stop' });
      expect(finishing.phase).toBe('finishing');
      expect(finishing.elapsed).toBe(3);
      const done = run(finishing, { type: 'recordingReady' });
      expect(done.phase).toBe('stopped');
      expect(hasRecording(done)).toBe(true);
      expect(done.elapsed).toBe(3);
    }
  });

  it('Arrêter does nothing when not recording', () => {
    for (const phase of ['off', 'starting', 'on', 'finishing', 'stopped'] as const) {
      expect(run(at(phase), { type: 'stop' })).toEqual(at(phase));
    }
  });

  it('the timer ticks every second while recording only', () => {
    const state = run(recording(), { type: 'tick' }, { type: 'tick' }, { type: 'tick' });
    expect(state.elapsed).toBe(3);
    expect(remainingSeconds(state)).toBe(27);
    const paused = run(state, { type: 'pause' }, { type: 'tick' }, { type: 'tick' });
    expect(paused.elapsed).toBe(3);
    for (const phase of ['off', 'starting', 'on', 'finishing', 'stopped'] as const) {
      expect(run(at(phase, { elapsed: 5 }), { type: 'tick' })).toEqual(at(phase, { elapsed: 5 }));
    }
  });

  it('takes the measured seconds from the clock, never backwards nor past the duration', () => {
    const state = run(recording(), { type: 'tick', elapsed: 2.7 });
    expect(state.elapsed).toBe(2);
    expect(run(state, { type: 'tick', elapsed: 2.9 })).toBe(state); // same second: unchanged
    expect(run(state, { type: 'tick', elapsed: 1 })).toBe(state);
    expect(run(state, { type: 'tick', elapsed: Number.NaN })).toBe(state);
    const late = run(state, { type: 'tick', elapsed: 99 });
    expect(late).toMatchObject({ elapsed: 30, phase: 'finishing' });
    expect(run(at('paused', { elapsed: 3 }), { type: 'tick', elapsed: 8 }).elapsed).toBe(3);
  });

  it('stops automatically when the timer reaches the chosen duration', () => {
    let state = run(cameraOn(), { type: 'setDuration', duration: 15 }, { type: 'start' });
    for (let second = 1; second < 15; second += 1) state = run(state, { type: 'tick' });
    expect(state.phase).toBe('recording');
    expect(remainingSeconds(state)).toBe(1);
    state = run(state, { type: 'tick' });
    expect(state.phase).toBe('finishing');
    expect(state.elapsed).toBe(15);
    expect(remainingSeconds(state)).toBe(0);
    state = run(state, { type: 'tick' });
    expect(state.elapsed).toBe(15);
    expect(run(state, { type: 'recordingReady' }).phase).toBe('stopped');
  });

  it('an empty file or a recorder error goes back to camera off with a message', () => {
    const empty = run(at('finishing', { elapsed: 2 }), { type: 'recordingReady', empty: true });
    expect(empty.phase).toBe('off');
    expect(empty.elapsed).toBe(0);
    expect(empty.notice?.kind).toBe('error');
    for (const phase of ['recording', 'paused', 'finishing'] as const) {
      const failed = run(at(phase, { elapsed: 2 }), { type: 'recordingFailed' });
      expect(failed.phase).toBe('off');
      expect(failed.notice?.text).toBe(MESSAGES.recordingFailed);
    }
    for (const phase of ['off', 'on', 'stopped'] as const) {
      expect(run(at(phase), { type: 'recordingFailed' })).toEqual(at(phase));
      expect(run(at(phase), { type: 'recordingReady' })).toEqual(at(phase));
    }
  });

  it('a lost camera turns it off, or finishes a recording in progress', () => {
    expect(run(at('on'), { type: 'cameraLost' }).phase).toBe('off');
    expect(run(at('starting'), { type: 'cameraLost' }).phase).toBe('off');
    expect(run(at('recording'), { type: 'cameraLost' }).phase).toBe('finishing');
    expect(run(at('paused'), { type: 'cameraLost' }).phase).toBe('finishing');
    for (const phase of ['off', 'finishing', 'stopped'] as const) {
      expect(run(at(phase), { type: 'cameraLost' })).toEqual(at(phase));
    }
  });

  it('Supprimer clears the recording: stopped → off', () => {
    const state = run(stopped(), { type: 'discard' });
    expect(state.phase).toBe('off');
    expect(state.elapsed).toBe(0);
    expect(hasRecording(state)).toBe(false);
  });

  it('Recommencer clears the recording and reopens the camera: stopped → starting → on', () => {
    const state = run(stopped(), { type: 'restart' });
    expect(state.phase).toBe('starting');
    expect(state.elapsed).toBe(0);
    expect(run(state, { type: 'cameraReady' }).phase).toBe('on');
  });

  it('Supprimer and Recommencer need a recording and no upload in flight', () => {
    for (const phase of ALL_PHASES.filter((p) => p !== 'stopped')) {
      expect(run(at(phase), { type: 'discard' })).toEqual(at(phase));
      expect(run(at(phase), { type: 'restart' })).toEqual(at(phase));
    }
    const uploading = run(stopped(), { type: 'publish' });
    expect(run(uploading, { type: 'discard' })).toEqual(uploading);
    expect(run(uploading, { type: 'restart' })).toEqual(uploading);
  });

  it('Publier without a recording gives "Aucune vidéo à publier !"', () => {
    for (const phase of ALL_PHASES.filter((p) => p !== 'stopped')) {
      const state = run(at(phase), { type: 'publish' });
      expect(state.phase).toBe(phase);
      expect(state.publishing).toBe(false);
      expect(state.notice).toMatchObject({ kind: 'error', text: 'Aucune vidéo à publier !' });
    }
  });

  it('Publier uploads, then clears the recording with "Vidéo publiée !"', () => {
    const uploading = run(stopped(), { type: 'publish' });
    expect(uploading.phase).toBe('stopped');
    expect(uploading.publishing).toBe(true);
    expect(run(uploading, { type: 'publish' })).toEqual(uploading); // no second upload
    const done = run(uploading, { type: 'publishSucceeded' });
    expect(done.phase).toBe('off');
    expect(done.publishing).toBe(false);
    expect(hasRecording(done)).toBe(false);
    expect(done.notice).toMatchObject({ kind: 'success', text: 'Vidéo publiée !' });
  });

  it('a failed upload keeps the recording with "Échec de l\'envoi."', () => {
    const failed = run(stopped(), { type: 'publish' }, { type: 'publishFailed' });
    expect(failed.phase).toBe('stopped');
    expect(failed.publishing).toBe(false);
    expect(failed.notice).toMatchObject({ kind: 'error', text: "Échec de l'envoi." });
    expect(controlsFor(failed).publish).toBe(true);
  });

  it("carries the server's own message as a detail", () => {
    const failed = run(stopped(), { type: 'publish' }, { type: 'publishFailed', detail: 'Fichier vidéo requis.' });
    expect(failed.notice).toMatchObject({ text: "Échec de l'envoi.", detail: 'Fichier vidéo requis.' });
    const same = run(stopped(), { type: 'publish' }, { type: 'publishFailed', detail: "Échec de l'envoi." });
    expect(same.notice?.detail).toBeUndefined();
  });

  it('a cancelled upload keeps the recording without a message', () => {
    const cancelled = run(stopped(), { type: 'publish' }, { type: 'publishCancelled' });
    expect(cancelled.phase).toBe('stopped');
    expect(cancelled.publishing).toBe(false);
    expect(cancelled.notice).toBeNull();
  });

  it('upload answers without an upload in flight are ignored', () => {
    for (const type of ['publishSucceeded', 'publishFailed', 'publishCancelled'] as const) {
      expect(run(stopped(), { type })).toEqual(stopped());
    }
  });

  it('duration: 15, 30 or 60 s, chosen outside a recording', () => {
    expect(run(initialRecorderState, { type: 'setDuration', duration: 60 }).duration).toBe(60);
    expect(run(cameraOn(), { type: 'setDuration', duration: 15 }).duration).toBe(15);
    expect(run(stopped(), { type: 'setDuration', duration: 15 }).duration).toBe(15);
    for (const invalid of [0, 10, 45, 120, Number.NaN]) {
      expect(run(initialRecorderState, { type: 'setDuration', duration: invalid }).duration).toBe(30);
    }
    for (const phase of ['recording', 'paused', 'finishing'] as const) {
      expect(run(at(phase), { type: 'setDuration', duration: 60 }).duration).toBe(30);
    }
  });

  it('numbers every message so the same text twice is shown twice', () => {
    const once = run(initialRecorderState, { type: 'start' });
    const twice = run(once, { type: 'start' });
    expect(twice.notice?.text).toBe(once.notice?.text);
    expect(twice.notice?.id).toBe((once.notice?.id ?? 0) + 1);
  });

  it('a full session: on, record, pause, resume, stop, publish', () => {
    const state = run(
      initialRecorderState,
      { type: 'enableCamera' },
      { type: 'cameraReady' },
      { type: 'start' },
      { type: 'tick' },
      { type: 'pause' },
      { type: 'tick' },
      { type: 'resume' },
      { type: 'tick' },
      { type: 'stop' },
      { type: 'recordingReady' },
    );
    expect(state).toMatchObject({ phase: 'stopped', elapsed: 2 });
    expect(run(state, { type: 'publish' }, { type: 'publishSucceeded' })).toMatchObject({
      phase: 'off',
      elapsed: 0,
      duration: 30,
    });
  });
});

describe('recorder: enabling rules', () => {
  // the controls enabled in each phase; every other control is disabled
  const enabled: Record<RecorderPhase, (keyof RecorderControls)[]> = {
    off: ['enableCamera', 'duration'],
    starting: ['duration'],
    on: ['start', 'duration'],
    recording: ['pause', 'stop'],
    paused: ['resume', 'stop'],
    finishing: [],
    stopped: ['discard', 'restart', 'publish', 'duration', 'title'],
  };
  const CONTROLS: (keyof RecorderControls)[] = [
    'enableCamera',
    'start',
    'pause',
    'resume',
    'stop',
    'discard',
    'restart',
    'publish',
    'duration',
    'title',
  ];

  it.each(ALL_PHASES)('controls in phase "%s"', (phase) => {
    const expected = Object.fromEntries(CONTROLS.map((control) => [control, enabled[phase].includes(control)]));
    expect(controlsFor(at(phase))).toEqual(expected);
  });

  it('Démarrer is disabled without a camera or while recording', () => {
    for (const phase of ALL_PHASES) {
      const state = at(phase);
      expect(controlsFor(state).start).toBe(hasCamera(state) && !isRecording(state));
    }
  });

  it('Pause only while recording and not paused; Reprendre only while paused', () => {
    for (const phase of ALL_PHASES) {
      const state = at(phase);
      expect(controlsFor(state).pause).toBe(isRecording(state) && !isPaused(state));
      expect(controlsFor(state).resume).toBe(isPaused(state));
    }
  });

  it('Arrêter only while recording, paused counting as recording', () => {
    for (const phase of ALL_PHASES) {
      expect(controlsFor(at(phase)).stop).toBe(phase === 'recording' || phase === 'paused');
    }
  });

  it('Supprimer and Publier are disabled without a recording', () => {
    for (const phase of ALL_PHASES) {
      const state = at(phase);
      expect(controlsFor(state).discard).toBe(hasRecording(state));
      expect(controlsFor(state).publish).toBe(hasRecording(state));
    }
  });

  it('everything about the recording is disabled while it uploads', () => {
    const uploading = controlsFor(at('stopped', { publishing: true }));
    expect(uploading.publish).toBe(false);
    expect(uploading.discard).toBe(false);
    expect(uploading.restart).toBe(false);
  });
});

describe('recorder: the title asked before Publier', () => {
  it("offers SPEC's 'Vidéo EVO' once recorded; the member may change it then only", () => {
    expect(stopped().title).toBe('Vidéo EVO');
    expect(run(stopped(), { type: 'setTitle', title: 'Mon premier live' }).title).toBe('Mon premier live');
    for (const phase of ALL_PHASES.filter((p) => p !== 'stopped'))
      expect(run(at(phase), { type: 'setTitle', title: 'x' }).title, phase).toBe('Vidéo EVO');
    expect(run(stopped(), { type: 'publish' }, { type: 'setTitle', title: 'x' }).title).toBe('Vidéo EVO');
  });

  it("refuses to publish without a title, or one too long, with the upload's messages, and stays ready", () => {
    const blank = run(stopped(), { type: 'setTitle', title: '   ' }, { type: 'publish' });
    expect(blank).toMatchObject({ phase: 'stopped', publishing: false });
    expect(blank.notice).toMatchObject({ kind: 'error', text: MESSAGES.titleRequired });
    expect(MESSAGES.titleRequired).toBe('Le titre de la vidéo est obligatoire.');
    const long = run(stopped(), { type: 'setTitle', title: 'a'.repeat(TITLE_MAX + 1) }, { type: 'publish' });
    expect(long).toMatchObject({ phase: 'stopped', publishing: false });
    expect(long.notice).toMatchObject({ kind: 'error', text: MESSAGES.titleTooLong });
    expect(titleProblem(` ${'a'.repeat(TITLE_MAX)} `)).toBeNull();
  });

  it('publishes under the chosen title, then the next video starts from the default again', () => {
    const named = run(stopped(), { type: 'setTitle', title: 'Coucou' }, { type: 'publish' });
    expect(named).toMatchObject({ publishing: true, title: 'Coucou' });
    expect(run(named, { type: 'publishFailed' }).title).toBe('Coucou');
    expect(run(named, { type: 'publishSucceeded' }).title).toBe('Vidéo EVO');
    expect(run(stopped(), { type: 'setTitle', title: 'x' }, { type: 'discard' }).title).toBe('Vidéo EVO');
  });
});

describe('recorder: the frame it films', () => {
  it('is the product frame on a wide screen: 640x480 camera, 320x220 canvas', () => {
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 844, height: 390 },
      { width: 700, height: 900 },
    ]) {
      const frame = recordingFrame(viewport);
      expect(frame.orientation).toBe('landscape');
      expect(frame.canvas).toEqual({ width: 320, height: 220 });
      expect(frame.camera).toMatchObject({ width: 640, height: 480, facingMode: 'user' });
    }
  });

  it('is vertical, 9:16, on a phone held upright: a portrait camera asked for, never required', () => {
    const frame = recordingFrame({ width: 390, height: 844 });
    expect(frame.orientation).toBe('portrait');
    expect(frame.canvas.width / frame.canvas.height).toBeCloseTo(9 / 16);
    expect(frame.camera).toMatchObject({ facingMode: 'user', aspectRatio: { ideal: 9 / 16 } });
    // ideal values only: a camera with no portrait mode still opens
    for (const value of Object.values(frame.camera))
      if (typeof value === 'object') expect(Object.keys(value as object)).toEqual(['ideal']);
  });
});
