import './recorder.css';

/** The sample shipped with the app (web/public/samples, 4 s, H.264/AAC). */
export const SAMPLE_VIDEO_URL = '/samples/evo-sample.mp4';

/** the product screens, "Test video page" (/test-video): one fixed sample video with controls. */
export default function TestVideoScreen() {
  return (
    <section className="page test-video" aria-labelledby="test-video-title">
      <title>Vidéo de test · EVO</title>
      <h1 id="test-video-title">Vidéo de test</h1>
      <p>Une courte vidéo d'exemple pour vérifier la lecture et le son sur ton appareil.</p>
      <video
        className="test-video__player"
        src={SAMPLE_VIDEO_URL}
        controls
        playsInline
        preload="metadata"
        aria-label="Vidéo d'exemple EVO"
      />
    </section>
  );
}
