import { useState } from 'react';
import { useLoad } from '../api/useLoad';
import { mediaUrl } from '../videos/types';
import { fetchReportedVideo } from './api';

const GONE = 'Vidéo indisponible : elle a été supprimée par son auteur ou son fichier est introuvable.';
const LOADING = 'Chargement de la vidéo...';

/**
 * The reported video played inside its report card, so the administrator judges it without leaving
 * /admin/reports. Loaded only when asked (a list can hold hundreds of reports); the server gives an
 * administrator hidden and moderated videos too.
 */
export function ReportVideoPreview({ videoId, title }: { videoId: number; title: string }) {
  const video = useLoad(`admin:report-video:${videoId}`, (signal) => fetchReportedVideo(videoId, signal));
  const [broken, setBroken] = useState(false);
  const src = mediaUrl(video.data?.file_path);
  if (video.error || broken || (video.data && !src)) {
    return (
      <p className="report__preview-text" role="status">
        {GONE}
      </p>
    );
  }
  if (!video.data || !src) {
    return (
      <p className="report__preview-text" role="status">
        {LOADING}
      </p>
    );
  }
  return (
    <video
      className="report__player"
      src={src}
      poster={mediaUrl(video.data.poster, 'posters') ?? undefined}
      controls
      autoPlay
      playsInline
      preload="metadata"
      aria-label={`Vidéo signalée : ${title}`}
      onError={() => setBroken(true)}
    />
  );
}
