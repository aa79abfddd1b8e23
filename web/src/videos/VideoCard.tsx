import { useId, useRef, useState, type ReactNode, type Ref } from 'react';
import { Link } from 'react-router-dom';
import { formatCount, formatDuration, plural } from '../social/format';
import { ActionMenu, type ActionMenuItem } from './ActionMenu';
import { CommentsPanel } from './CommentsPanel';
import { GiftButton } from './GiftButton';
import { CommentIcon, EyeIcon, FlagIcon, HeartIcon, PlayIcon, ShareIcon, StarIcon, TrashIcon } from './icons';
import { ModerationNotice, moderationStatus } from './ModerationNotice';
import { ProcessingFailedNotice } from './ProcessingFailedNotice';
import { mediaUrl, videoPath, videoTitle, type Video } from './types';
import { useComments } from './useComments';
import { CARD_TEXTS, useVideoActions, type VideoActions } from './useVideoActions';
import './videos.css';

export interface VideoCardProps {
  video: Video;
  /** Rendered at the top of the card (author row of the feeds and suggestions). */
  header?: ReactNode;
  /** Show the title under the player (default true). */
  showTitle?: boolean;
  /** Heading level of the title (default 3). */
  titleLevel?: 2 | 3 | 4;
  /** After a successful delete by the owner: reload the list. */
  onDeleted?: (id: number) => void;
  /** Confirmation text of Supprimer (default 'Supprimer cette vidéo ?'). */
  deleteConfirm?: string;
  /** DELETE /api/videos/:id (default) or /api/videos/delete/:id. */
  deleteVia?: 'videos' | 'delete';
  /** Replaces the default gift button (coins slice). */
  renderGiftButton?: (video: Video) => ReactNode;
}

/**
 * the product screens, "Video card": player (opens /video/{id}), like, views, comments toggle,
 * gift, and a menu Partager / Favori / Signaler / Supprimer (owner only).
 */
export function VideoCard({
  video,
  header,
  showTitle = true,
  titleLevel = 3,
  onDeleted,
  deleteConfirm,
  deleteVia,
  renderGiftButton,
}: VideoCardProps) {
  const actions = useVideoActions(video, {
    texts: deleteConfirm ? { ...CARD_TEXTS, deleteConfirm } : CARD_TEXTS,
    deleteVia,
    onDeleted,
  });
  const comments = useComments(video.id, video.comments_count);
  const [commentsOpen, setCommentsOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const panelId = useId();
  const title = videoTitle(video);
  const commentsCount = comments.count;
  const Heading = `h${titleLevel}` as const;

  const toggleComments = () => {
    if (!commentsOpen) comments.load();
    setCommentsOpen(!commentsOpen);
  };

  const onPosted = () => {
    setCommentsOpen(false);
    comments.load();
    toggleRef.current?.focus();
  };

  return (
    <article className="video-card card" aria-labelledby={titleId}>
      {header ? <div className="video-card__header">{header}</div> : null}
      <VideoPreview video={video} title={title} />
      <div className="video-card__body">
        <Heading id={titleId} className={showTitle ? 'video-card__title' : 'sr-only'}>
          {title}
        </Heading>
        <ModerationNotice video={video} compact />
        {actions.isOwner && video.processing === 'échouée' ? (
          <ProcessingFailedNotice video={video} onDelete={() => void actions.remove()} />
        ) : null}
        <div className="video-card__actions">
          <LikeButton actions={actions} />
          <ViewCount views={actions.views} />
          <CommentsButton
            ref={toggleRef}
            count={commentsCount}
            open={commentsOpen}
            controls={commentsOpen ? panelId : undefined}
            onClick={toggleComments}
          />
          {renderGiftButton ? renderGiftButton(video) : <GiftButton video={video} />}
          <ActionMenu className="video-card__menu" label="Plus d'actions sur la vidéo" items={menuItems(actions)} />
        </div>
        {commentsOpen ? (
          <CommentsPanel id={panelId} videoId={video.id} comments={comments} onPosted={onPosted} />
        ) : null}
      </div>
    </article>
  );
}

function menuItems(actions: VideoActions): ActionMenuItem[] {
  const items: ActionMenuItem[] = [
    { id: 'share', label: 'Partager', icon: <ShareIcon size={18} />, onSelect: () => void actions.share() },
    {
      id: 'favorite',
      label: actions.favorited ? 'Retirer des favoris' : 'Favori',
      icon: <StarIcon size={18} filled={actions.favorited} />,
      onSelect: () => void actions.favorite(),
    },
  ];
  // a member reports others' videos, not their own (the server refuses it too)
  if (!actions.isOwner)
    items.push({
      id: 'report',
      label: 'Signaler',
      icon: <FlagIcon size={18} />,
      onSelect: () => void actions.report(),
    });
  if (actions.isOwner) {
    items.push({
      id: 'delete',
      label: 'Supprimer',
      icon: <TrashIcon size={18} />,
      danger: true,
      onSelect: () => void actions.remove(),
    });
  }
  return items;
}

/** Like toggle with its count; aria-pressed tells whether the member likes it. */
export function LikeButton({ actions, variant = 'inline' }: { actions: VideoActions; variant?: 'inline' | 'bar' }) {
  return (
    <button
      type="button"
      className={`video-action video-action--${variant} video-action--like`}
      aria-pressed={actions.liked}
      aria-label={`J'aime (${actions.likes})`}
      onClick={() => void actions.toggleLike()}
    >
      <HeartIcon filled={actions.liked} />
      <span aria-hidden="true">{formatCount(actions.likes)}</span>
    </button>
  );
}

/** How many times the video was seen (not a control). */
export function ViewCount({ views, variant = 'inline' }: { views: number; variant?: 'inline' | 'bar' }) {
  return (
    <span className={`video-action video-action--${variant} video-action--static`}>
      <EyeIcon />
      <span aria-hidden="true">{formatCount(views)}</span>
      <span className="sr-only">{plural(views, 'vue', 'vues')}</span>
    </span>
  );
}

/** Opens the comments, in place (`controls`: the panel's id while open) or in a dialog (`dialog`), with their count. */
export function CommentsButton({
  ref,
  count,
  open,
  controls,
  dialog = false,
  variant = 'inline',
  onClick,
}: {
  ref: Ref<HTMLButtonElement>;
  count: number;
  open: boolean;
  controls?: string;
  dialog?: boolean;
  variant?: 'inline' | 'bar';
  onClick: () => void;
}) {
  return (
    <button
      ref={ref}
      type="button"
      className={`video-action video-action--${variant}`}
      aria-expanded={open}
      aria-controls={controls}
      aria-haspopup={dialog ? 'dialog' : undefined}
      aria-label={`Commentaires (${count})`}
      onClick={onClick}
    >
      <CommentIcon filled={open} />
      <span aria-hidden="true">{formatCount(count)}</span>
    </button>
  );
}

/** Muted first frame of the video; the whole area is a link to /video/{id}. */
function VideoPreview({ video, title }: { video: Video; title: string }) {
  const src = mediaUrl(video.file_path);
  const poster = mediaUrl(video.poster, 'posters') ?? undefined;
  const duration = formatDuration(video.duration);
  const hidden = moderationStatus(video);
  const status =
    hidden ??
    (video.processing === 'en_traitement'
      ? 'En traitement'
      : video.processing === 'rejetée'
        ? `Rejetée${video.reject_reason ? ` : ${video.reject_reason}` : ''}`
        : video.processing === 'échouée'
          ? 'Traitement échoué'
          : null);
  return (
    <Link
      to={videoPath(video.id)}
      className="video-card__open"
      aria-label={`Ouvrir la vidéo : ${title}${status ? ` (${status})` : ''}`}
    >
      {src ? (
        <video
          className="video-card__video"
          src={poster ? src : `${src}#t=0.1`}
          poster={poster}
          muted
          playsInline
          preload="metadata"
          tabIndex={-1}
          aria-hidden="true"
        />
      ) : (
        <span className="video-card__missing">Vidéo indisponible</span>
      )}
      <span className="video-card__play" aria-hidden="true">
        <PlayIcon size={28} />
      </span>
      {duration ? (
        <span className="video-card__duration" aria-hidden="true">
          {duration}
        </span>
      ) : null}
      {status ? (
        <span
          className={
            hidden || video.processing === 'rejetée' || video.processing === 'échouée'
              ? 'video-card__status video-card__status--rejected'
              : 'video-card__status'
          }
          aria-hidden="true"
        >
          {status}
        </span>
      ) : null}
    </Link>
  );
}
