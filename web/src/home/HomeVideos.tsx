import { Link } from 'react-router-dom';
import { useCurrentUser } from '../identity/sessionContext';
import { ADD_CHOICES, opensOwnDocument } from '../shell/addChoices';
import { QueryState } from '../shell/ui/QueryState';
import { PlayIcon } from '../videos/icons';
import type { Video } from '../videos/types';
import { useHomeVideos } from './homeVideos';

const TITLE = 'Vidéos à découvrir';
const LOAD_FAILED = 'Impossible de charger les vidéos.';

/** The home page's videos, under the carousel: a tap opens the video page. */
export function HomeVideos() {
  const { user } = useCurrentUser();
  const email = user?.email ?? null;
  const list = useHomeVideos(email);

  let content;
  if (!email) {
    content = (
      <div className="home-videos__prompt card">
        <p>Connecte-toi pour voir les vidéos de tes amis et des créateurs à suivre.</p>
        <div className="form__actions">
          <Link to="/login" className="btn btn--primary">
            Se connecter
          </Link>
          <Link to="/register" className="btn btn--secondary">
            Créer un compte
          </Link>
        </div>
      </div>
    );
  } else {
    content = (
      <QueryState query={list} failed={LOAD_FAILED}>
        {(videos) => <HomeVideoList videos={videos} />}
      </QueryState>
    );
  }

  return (
    <section className="home-videos" aria-labelledby="home-videos-title">
      <div className="home-videos__header">
        <h2 id="home-videos-title">{TITLE}</h2>
        {email ? (
          <Link to="/users-with-videos" className="link-button">
            Voir plus
          </Link>
        ) : null}
      </div>
      {content}
    </section>
  );
}

function HomeVideoList({ videos }: { videos: Video[] }) {
  if (videos.length === 0) {
    return (
      <div className="home-videos__prompt card">
        <p>Aucune vidéo pour le moment : publie la première !</p>
        <div className="form__actions">
          {ADD_CHOICES.map(({ to, label }) => (
            <Link key={to} to={to} reloadDocument={opensOwnDocument(to)} className="btn btn--secondary">
              {label}
            </Link>
          ))}
        </div>
      </div>
    );
  }
  return (
    <ul className="tile-grid">
      {videos.map((video) => (
        <li key={video.id}>
          <HomeVideoTile video={video} />
        </li>
      ))}
    </ul>
  );
}

function HomeVideoTile({ video }: { video: Video }) {
  const title = video.title || 'Sans titre';
  return (
    <Link to={`/video/${video.id}`} className="home-video" aria-label={`${title}, par @${video.user_pseudo}`}>
      <span className="home-video__frame">
        <video
          src={video.file_path}
          poster={video.poster ?? undefined}
          muted
          playsInline
          preload="metadata"
          tabIndex={-1}
          aria-hidden="true"
        />
        <span className="home-video__play">
          <PlayIcon size={18} />
        </span>
      </span>
      <span className="home-video__title">{title}</span>
      <span className="home-video__author">@{video.user_pseudo}</span>
    </Link>
  );
}
