import { useEffect, useId, useLayoutEffect, useRef, type Dispatch } from 'react';
import { createPortal } from 'react-dom';
import { Link } from 'react-router-dom';
import { ProfilePicture } from '../../shell/ui/ProfilePicture';
import { ActionMenu } from '../../videos/ActionMenu';
import { CommentsPanel } from '../../videos/CommentsPanel';
import { GiftButton } from '../../videos/GiftButton';
import {
  CloseIcon,
  FlagIcon,
  PauseIcon,
  PlayIcon,
  ShareIcon,
  StarIcon,
  VolumeIcon,
  VolumeOffIcon,
} from '../../videos/icons';
import { mediaUrl, videoTitle } from '../../videos/types';
import { useComments, type CommentsState } from '../../videos/useComments';
import { CARD_TEXTS, useVideoActions } from '../../videos/useVideoActions';
import { CommentsButton, LikeButton, ViewCount } from '../../videos/VideoCard';
import { ProfileLinkButton } from '../AuthorRow';
import { userPath } from '../format';
import type { FeedAction, FeedItem } from './feedState';

export const SOUND_ON = 'Activer le son';
export const SOUND_OFF = 'Couper le son';
const PAUSE = 'Mettre en pause';
const PLAY = 'Lire la vidéo';
const SUGGESTED = 'Suggestion';

export interface FeedSlideProps {
  item: FeedItem;
  /** position in the feed, from 1 */
  position: number;
  /** how many slides are known, -1 while more may come */
  setSize: number;
  active: boolean;
  /** the media is loaded (the visible video and the next one only) */
  loaded: boolean;
  /** close to the visible one: content mounted (poster, author, actions); farther slides are empty boxes */
  near: boolean;
  muted: boolean;
  paused: boolean;
  /** the display number of the visible video: one view per display */
  display: number;
  commentsOpen: boolean;
  onCommentsOpenChange: (open: boolean) => void;
  /** where the comments sheet is drawn (inside the feed, outside its scroller) */
  sheetHost: HTMLElement | null;
  dispatch: Dispatch<FeedAction>;
}

/** One screen of the vertical feed: the video, its author and title, the side actions. */
export function FeedSlide(props: FeedSlideProps) {
  const { item, position, setSize, active, near } = props;
  const titleId = useId();
  return (
    <article
      className={active ? 'feed-slide feed-slide--active' : 'feed-slide'}
      aria-posinset={position}
      aria-setsize={setSize}
      aria-labelledby={near ? titleId : undefined}
      aria-label={near ? undefined : videoTitle(item.video)}
      data-video-id={item.video.id}
      // only the visible video's controls are in the tab order
      inert={!active}
    >
      {near ? <SlideContent {...props} titleId={titleId} /> : null}
    </article>
  );
}

function SlideContent({
  item,
  active,
  loaded,
  muted,
  paused,
  display,
  commentsOpen,
  onCommentsOpenChange,
  sheetHost,
  dispatch,
  titleId,
}: FeedSlideProps & { titleId: string }) {
  const { video } = item;
  const actions = useVideoActions(video, { texts: CARD_TEXTS, viewKey: active ? display : null });
  const comments = useComments(video.id, video.comments_count);
  const videoRef = useRef<HTMLVideoElement>(null);
  const commentsButton = useRef<HTMLButtonElement>(null);
  const title = videoTitle(video);
  const src = mediaUrl(video.file_path);
  const poster = mediaUrl(video.poster, 'posters') ?? undefined;
  const pseudo = video.user_pseudo.trim();

  // the visible video plays (muted until the member turns the sound on); the others are paused
  useEffect(() => {
    const element = videoRef.current;
    if (!element) return;
    element.muted = muted;
    if (active && loaded && !paused) {
      element.play().catch((err: unknown) => {
        // sound refused before any gesture: play muted instead
        if (err instanceof DOMException && err.name === 'NotAllowedError' && !element.muted) {
          dispatch({ type: 'playBlocked' });
        }
      });
    } else {
      element.pause();
    }
  }, [active, loaded, muted, paused, dispatch]);

  // leaving the screen: back to the start, and the media of a video no longer loaded is released
  useEffect(() => {
    const element = videoRef.current;
    if (!element || active) return;
    if (!loaded && element.currentSrc) element.load();
    else if (element.currentTime > 0) element.currentTime = 0;
  }, [active, loaded]);

  const openComments = () => {
    if (!commentsOpen) comments.load();
    onCommentsOpenChange(!commentsOpen);
  };

  const closeComments = () => {
    onCommentsOpenChange(false);
    commentsButton.current?.focus();
  };

  return (
    <div className="feed-slide__stage">
      <div className="feed-slide__frame">
        {src ? (
          <video
            ref={videoRef}
            className="feed-slide__video"
            src={loaded ? src : undefined}
            poster={poster}
            preload={loaded ? 'auto' : 'none'}
            muted
            loop
            playsInline
            disablePictureInPicture
            tabIndex={-1}
            aria-hidden="true"
          />
        ) : (
          <span className="video-overlay-text feed-slide__missing">Vidéo indisponible</span>
        )}
        {/* a tap on the video: sound on first, then pause / play (the buttons below do the same by keyboard) */}
        <div className="feed-slide__tap" aria-hidden="true" onClick={() => dispatch({ type: 'tap' })} />
        {paused && active ? (
          <span className="feed-slide__paused" aria-hidden="true">
            <PlayIcon size={56} />
          </span>
        ) : null}
        <div className="feed-slide__controls">
          <button
            type="button"
            className={muted ? 'feed-control feed-control--label' : 'feed-control'}
            aria-label={muted ? SOUND_ON : SOUND_OFF}
            title={muted ? SOUND_ON : SOUND_OFF}
            onClick={() => dispatch({ type: 'toggleMute' })}
          >
            {muted ? <VolumeOffIcon size={20} /> : <VolumeIcon size={20} />}
            {muted ? <span aria-hidden="true">{SOUND_ON}</span> : null}
          </button>
          <button
            type="button"
            className="feed-control"
            aria-label={paused ? PLAY : PAUSE}
            title={paused ? PLAY : PAUSE}
            onClick={() => dispatch({ type: 'togglePause' })}
          >
            {paused ? <PlayIcon size={20} /> : <PauseIcon size={20} />}
          </button>
        </div>
        <div className="feed-slide__info">
          <div className="feed-slide__author">
            {pseudo ? (
              <>
                <Link to={userPath(pseudo)} className="feed-slide__avatar" tabIndex={-1} aria-hidden="true">
                  <ProfilePicture pseudo={pseudo} profilePicture={video.user_profile_picture} size={40} alt="" />
                </Link>
                <Link to={userPath(pseudo)} className="feed-slide__pseudo">
                  @{pseudo}
                </Link>
                <ProfileLinkButton pseudo={pseudo} />
              </>
            ) : (
              <span className="feed-slide__pseudo">@inconnu</span>
            )}
            {item.source === 'discover' ? <span className="feed-slide__badge">{SUGGESTED}</span> : null}
          </div>
          <h2 id={titleId} className="feed-slide__title">
            {title}
          </h2>
        </div>
      </div>
      <div className="feed-rail" role="group" aria-label="Actions sur la vidéo">
        <LikeButton actions={actions} variant="bar" />
        <CommentsButton
          ref={commentsButton}
          variant="bar"
          count={comments.count}
          open={commentsOpen}
          dialog
          onClick={openComments}
        />
        <GiftButton video={video} variant="bar" />
        <button type="button" className="video-action video-action--bar" onClick={() => void actions.share()}>
          <ShareIcon />
          <span className="video-action__text">Partager</span>
        </button>
        <ViewCount views={actions.views} variant="bar" />
        <ActionMenu
          className="feed-rail__menu"
          label="Plus d'actions sur la vidéo"
          items={[
            {
              id: 'favorite',
              label: actions.favorited ? 'Retirer des favoris' : 'Favori',
              icon: <StarIcon size={18} filled={actions.favorited} />,
              onSelect: () => void actions.favorite(),
            },
            { id: 'report', label: 'Signaler', icon: <FlagIcon size={18} />, onSelect: () => void actions.report() },
          ]}
        />
      </div>
      {active && commentsOpen && sheetHost
        ? createPortal(
            <CommentsSheet videoId={video.id} title={title} comments={comments} onClose={closeComments} />,
            sheetHost,
          )
        : null}
    </div>
  );
}

/** The comments of the visible video in a sheet over the feed (bottom on phones, at the side on wide screens). */
function CommentsSheet({
  videoId,
  title,
  comments,
  onClose,
}: {
  videoId: number;
  title: string;
  comments: CommentsState;
  onClose: () => void;
}) {
  const headingId = useId();
  const panelId = useId();
  const closeRef = useRef<HTMLButtonElement>(null);

  const closeLatest = useRef(onClose);
  useLayoutEffect(() => {
    closeLatest.current = onClose;
  });

  useEffect(() => {
    closeRef.current?.focus({ preventScroll: true });
  }, []);

  // Escape closes it, wherever the focus is (after sending, the focus may have left the sheet),
  // unless a dialog above it (a confirmation) takes the key
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || document.querySelector('dialog[open]')) return;
      event.preventDefault();
      closeLatest.current();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <section className="feed-sheet" role="dialog" aria-labelledby={headingId}>
      <header className="feed-sheet__header">
        <h2 id={headingId}>
          Commentaires <span className="feed-sheet__count">({comments.count})</span>
          <span className="sr-only"> : {title}</span>
        </h2>
        <button
          ref={closeRef}
          type="button"
          className="icon-button"
          aria-label="Fermer les commentaires"
          onClick={onClose}
        >
          <CloseIcon />
        </button>
      </header>
      <div className="feed-sheet__body">
        <CommentsPanel id={panelId} videoId={videoId} comments={comments} onPosted={() => comments.load()} />
      </div>
    </section>
  );
}
