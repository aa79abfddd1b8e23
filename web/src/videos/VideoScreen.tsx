import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { socialRoutes } from '@evo/contracts';
import { ApiError } from '../api/http';
import { useCurrentUser } from '../identity/sessionContext';
import { useRouteQuery } from '../api/queries';
import { formatCount, plural, userPath } from '../social/format';
import { profilePath } from '../shell/paths';
import { ProfilePicture } from '../shell/ui/ProfilePicture';
import { CommentsPanel } from './CommentsPanel';
import { GiftButton } from './GiftButton';
import { ArrowLeftIcon, FlagIcon, HeartIcon, ShareIcon, StarIcon, TrashIcon } from './icons';
import { mediaUrl, videoTitle, type Video } from './types';
import { useComments } from './useComments';
import { PAGE_TEXTS, useVideoActions } from './useVideoActions';
import { CommentsButton, LikeButton, ViewCount } from './VideoCard';
import { ModerationNotice } from './ModerationNotice';
import { LoginPrompt } from '../identity/LoginPrompt';
import { withReturn } from '../identity/returnPath';
import './videos.css';
import { Loading } from '../shell/Loading';

const UNAVAILABLE_TITLE = 'Vidéo indisponible';
const UNAVAILABLE_TEXT = "Cette vidéo n'existe pas ou a été supprimée.";
const LOAD_FAILED = 'Impossible de charger la vidéo.';
/** what a visitor who opened a shared link is told, next to the ways in */
export const VISITOR_PROMPT = 'Connecte-toi pour aimer, commenter ou offrir un cadeau';

/** the product screens, "Single video (/video/{id})". */
export default function VideoScreen() {
  const { id } = useParams();
  const videoId = Number(id);
  const valid = Number.isInteger(videoId) && videoId > 0;
  const loaded = useRouteQuery(socialRoutes.video, valid ? { id: videoId } : null);

  if (!valid || (loaded.error instanceof ApiError && loaded.error.status === 404)) {
    return <Unavailable />;
  }
  if (loaded.error && !loaded.data) {
    return (
      <Unavailable
        title={LOAD_FAILED}
        text={loaded.error instanceof ApiError ? loaded.error.message : undefined}
        onRetry={() => void loaded.refetch()}
      />
    );
  }
  // the shell's loading line, not QueryState: the failures are this page's own, and that module would
  // weigh on the first paint of a shared video's link (e2e/first-load.e2e.test.ts)
  if (!loaded.data) {
    return <Loading />;
  }
  return <VideoPage key={loaded.data.id} video={loaded.data} />;
}

function BackButton() {
  const navigate = useNavigate();
  const location = useLocation();
  // No in-app history (opened from a shared link): go home instead of leaving the site.
  const hasHistory = location.key !== 'default';
  return (
    <button
      type="button"
      className="btn btn--ghost btn--small video-page__back"
      onClick={() => (hasHistory ? navigate(-1) : navigate('/'))}
    >
      <ArrowLeftIcon size={18} />
      Retour
    </button>
  );
}

function Unavailable({
  title = UNAVAILABLE_TITLE,
  text = UNAVAILABLE_TEXT,
  onRetry,
}: {
  title?: string;
  text?: string;
  onRetry?: () => void;
}) {
  const { isLoggedIn } = useCurrentUser();
  const location = useLocation();
  return (
    <section className="page video-page" aria-labelledby="video-unavailable-title">
      <title>{`${title} · EVO`}</title>
      <BackButton />
      <div className="page--center video-page__unavailable" role="alert">
        <h1 id="video-unavailable-title">{title}</h1>
        <p>{text}</p>
        {onRetry ? (
          <button type="button" className="btn btn--primary" onClick={onRetry}>
            Réessayer
          </button>
        ) : (
          <div className="video-page__unavailable-actions">
            <Link to="/" className="btn btn--primary">
              Retour à l'accueil
            </Link>
            {/* a video hidden by moderation is still shown to its author, once logged in */}
            {isLoggedIn ? null : (
              <Link to={withReturn('/login', `${location.pathname}${location.search}`)} className="btn btn--secondary">
                Se connecter
              </Link>
            )}
          </div>
        )}
      </div>
    </section>
  );
}

/** The video, its counters and comments; a visitor (a shared link) reads them and is asked to log in to act. */
function VideoPage({ video }: { video: Video }) {
  const { user } = useCurrentUser();
  const visitor = !user;
  const navigate = useNavigate();
  const comments = useComments(video.id, video.comments_count);
  // the single video page shows its comment thread from the start (the button folds it)
  const [commentsOpen, setCommentsOpen] = useState(true);
  const { load: loadComments } = comments;
  const commentsStarted = useRef(false);
  useEffect(() => {
    if (commentsStarted.current) return;
    commentsStarted.current = true;
    loadComments();
  }, [loadComments]);
  const commentsButton = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const actions = useVideoActions(video, {
    texts: PAGE_TEXTS,
    onDeleted: () => navigate(profilePath(user), { replace: true }),
  });
  const title = videoTitle(video);
  const src = mediaUrl(video.file_path);
  const poster = mediaUrl(video.poster, 'posters') ?? undefined;
  const commentsCount = comments.count;

  const toggleComments = () => {
    if (!commentsOpen) comments.load();
    setCommentsOpen(!commentsOpen);
  };

  return (
    <article className="page video-page" aria-labelledby="video-page-title">
      <title>{`${title} · EVO`}</title>
      <BackButton />
      <div className="video-page__stage">
        {src ? (
          <video
            className="video-page__player"
            src={src}
            poster={poster}
            controls
            playsInline
            preload="metadata"
            aria-label={`Vidéo : ${title}`}
          />
        ) : (
          <div className="video-page__player video-card__missing">{UNAVAILABLE_TITLE}</div>
        )}
        <div className="video-page__bar" role="group" aria-label="Actions sur la vidéo">
          {visitor ? (
            <span className="video-action video-action--bar video-action--static">
              <HeartIcon />
              <span aria-hidden="true">{formatCount(actions.likes)}</span>
              <span className="sr-only">{plural(actions.likes, "j'aime", "j'aime")}</span>
            </span>
          ) : (
            <LikeButton actions={actions} variant="bar" />
          )}
          <CommentsButton
            ref={commentsButton}
            variant="bar"
            count={commentsCount}
            open={commentsOpen}
            controls={commentsOpen ? panelId : undefined}
            onClick={toggleComments}
          />
          <ViewCount views={actions.views} variant="bar" />
          {visitor ? null : <GiftButton video={video} variant="bar" />}
          <BarButton label="Partager" onClick={() => void actions.share()} icon={<ShareIcon />} />
          {visitor ? null : (
            <>
              <BarButton
                label="Favori"
                onClick={() => void actions.favorite()}
                icon={<StarIcon filled={actions.favorited} />}
                pressed={actions.favorited}
              />
              {actions.isOwner ? null : (
                <BarButton label="Signaler" onClick={() => void actions.report()} icon={<FlagIcon />} />
              )}
            </>
          )}
          {actions.isOwner ? (
            <BarButton
              label="Supprimer"
              onClick={() => void actions.remove()}
              icon={<TrashIcon />}
              danger
              disabled={actions.deleting}
            />
          ) : null}
        </div>
      </div>
      <header className="video-page__info">
        <h1 id="video-page-title">{title}</h1>
        <p className="video-page__author">
          <ProfilePicture pseudo={video.user_pseudo} profilePicture={video.user_profile_picture} size={32} alt="" />
          {video.user_pseudo ? (
            <span>
              Posté par <Link to={userPath(video.user_pseudo)}>@{video.user_pseudo}</Link>
            </span>
          ) : (
            <span>Posté par @inconnu</span>
          )}
        </p>
        {video.description ? <p className="video-page__description">{video.description}</p> : null}
        {actions.isOwner || user?.is_admin ? (
          <p className="video-page__analytics">
            <Link to={`/analytics/video/${video.id}`}>Statistiques de la vidéo</Link>
          </p>
        ) : null}
        <ModerationNotice video={video} />
      </header>
      {visitor ? <LoginPrompt message={VISITOR_PROMPT} /> : null}
      {commentsOpen ? (
        <section aria-label="Commentaires de la vidéo" className="card video-page__comments">
          <CommentsPanel id={panelId} videoId={video.id} comments={comments} onPosted={() => comments.load()} />
        </section>
      ) : null}
    </article>
  );
}

function BarButton({
  label,
  icon,
  onClick,
  danger,
  disabled,
  pressed,
}: {
  label: string;
  icon: ReactNode;
  onClick: () => void;
  danger?: boolean;
  disabled?: boolean;
  pressed?: boolean;
}) {
  return (
    <button
      type="button"
      className={`video-action video-action--bar${danger ? ' video-action--danger' : ''}`}
      onClick={onClick}
      disabled={disabled}
      aria-pressed={pressed}
    >
      {icon}
      <span className="video-action__text">{label}</span>
    </button>
  );
}
