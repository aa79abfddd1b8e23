import { Link } from 'react-router-dom';
import { useCurrentUser } from '../identity/sessionContext';
import { ADD_CHOICES, opensOwnDocument } from '../shell/addChoices';
import { useLoad } from '../api/useLoad';
import { PlayIcon } from '../videos/icons';
import type { Video } from '../videos/types';
import { fetchHomeVideos } from './homeVideos';

const TITLE = 'Vidéos à découvrir';

/** The home page's videos, under the carousel: a tap opens the video page. */
export function HomeVideos() {
  const { user } = useCurrentUser();
  const email = user?.email ?? null;
  const list = useLoad(email ? `home-videos:${email}` : null, (signal) => fetchHomeVideos(email ?? '', signal));

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
  } else if (list.error && !list.data) {
    content = (
      <p className="social-error" role="alert">
        Impossible de charger les vidéos.
      </p>
    );
  } else if (!list.data) {
    content = (
      <p className="loading" role="status">
        Chargement...
      </p>
    );
  } else if (list.data.length === 0) {
    content = (
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
  } else {
    content = (
      <ul className="tile-grid">
        {list.data.map((video) => (
          <li key={video.id}>
            <HomeVideoTile video={video} />
          </li>
        ))}
      </ul>
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
