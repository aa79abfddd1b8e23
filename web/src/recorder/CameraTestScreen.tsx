import { useEffect, useRef, useState } from 'react';
import { openCameraOnly, stopStream } from './media';
import './recorder.css';

type CameraStatus = 'starting' | 'live' | 'unavailable';

/**
 * the product screens, "Camera test page" (/test): mirrored live preview of the front
 * camera, without audio. A refusal is only logged to the console (the product error catalogue).
 */
export default function CameraTestScreen() {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [status, setStatus] = useState<CameraStatus>('starting');

  useEffect(() => {
    const video = videoRef.current;
    let stream: MediaStream | null = null;
    let active = true;
    openCameraOnly().then(
      (opened) => {
        if (!active) {
          stopStream(opened);
          return;
        }
        stream = opened;
        if (video) {
          video.srcObject = opened;
          void video.play().catch(() => undefined);
        }
        setStatus('live');
      },
      (err: unknown) => {
        console.warn('Test caméra : accès à la caméra impossible', err);
        if (active) setStatus('unavailable');
      },
    );
    return () => {
      active = false;
      stopStream(stream);
      if (video) video.srcObject = null;
    };
  }, []);

  return (
    <section className="page camera-test" aria-labelledby="camera-test-title">
      <title>Test caméra · EVO</title>
      <h1 id="camera-test-title">Test caméra</h1>
      <p>Vérifie que ta caméra fonctionne : l'image est affichée comme dans un miroir, sans le son.</p>
      <div className="camera-test__frame">
        <video
          ref={videoRef}
          className="camera-test__video"
          autoPlay
          muted
          playsInline
          aria-label="Aperçu en direct de la caméra (miroir)"
          data-status={status}
        />
        {status !== 'live' ? (
          <p className="video-overlay-text camera-test__text" aria-hidden="true">
            {status === 'starting' ? 'Activation de la caméra...' : 'Caméra indisponible'}
          </p>
        ) : null}
      </div>
    </section>
  );
}
