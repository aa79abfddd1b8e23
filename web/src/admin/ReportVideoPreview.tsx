import { useState } from 'react';
import { socialRoutes } from '@evo/contracts';
import { useRouteQuery } from '../api/queries';
import { mediaUrl } from '../videos/types';

const GONE = 'Vidéo indisponible : elle a été supprimée par son auteur ou son fichier est introuvable.';
const LOADING = 'Chargement de la vidéo...';

/**
 * The reported video played inside its report card, so the administrator judges it without leaving
 * /admin/reports. Loaded only when asked (a list can hold hundreds of reports); the server gives an
 * administrator hidden and moderated videos too.
 */
export function ReportVideoPreview({ videoId, title }: { videoId: number; title: string }) {
  // GET /api/videos/:id as an administrator reads it: hidden and moderated videos included
  const video = useRouteQuery(socialRoutes.video, { id: videoId });
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
