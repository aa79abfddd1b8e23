import { useState } from 'react';
import { errorMessage } from '../api/http';
import { useCurrentUser } from '../identity/sessionContext';
import { useToast } from '../shell/toast';
import { VideoCard } from '../videos/VideoCard';
import type { Video } from '../videos/types';
import { fetchFriendsFeed } from '../videos/videoApi';
import { AuthorRow, ProfileLinkButton } from './AuthorRow';
import { formatRelative } from './format';
import { useLoad } from '../api/useLoad';
import './social.css';

const TITLE = 'Feed Amis';
const INTRO = 'Les dernières vidéos des personnes que tu suis.';
const NOT_LOGGED_IN = 'Utilisateur non connecté';
const LOAD_FAILED = 'Impossible de charger le feed amis';
const EMPTY = 'Aucun contenu';
const MORE = 'Voir plus de vidéos';
const PAGE_SIZE = 10;

interface FeedPage {
  videos: Video[];
  page: number;
  hasMore: boolean;
}

/** SPEC.md §2 "Friends feed ('Feed Amis')" (/feed), paged with a "see more" button. */
export default function FriendsFeedScreen() {
  const { user } = useCurrentUser();
  const toast = useToast();
  const email = user?.email ?? null;
  const feed = useLoad<FeedPage>(email ? `friends-feed:${email}` : null, async (signal) => {
    const videos = await fetchFriendsFeed(email ?? '', 1, PAGE_SIZE, signal);
    return { videos, page: 1, hasMore: videos.length >= PAGE_SIZE };
  });
  const [loadingMore, setLoadingMore] = useState(false);

  const loadMore = async () => {
    if (!email || !feed.data || loadingMore) return;
    const next = feed.data.page + 1;
    setLoadingMore(true);
    try {
      const videos = await fetchFriendsFeed(email, next, PAGE_SIZE);
      feed.setData((current) => {
        const known = new Set(current.videos.map((v) => v.id));
        return {
          videos: [...current.videos, ...videos.filter((v) => !known.has(v.id))],
          page: next,
          hasMore: videos.length >= PAGE_SIZE,
        };
      });
    } catch (err) {
      toast.error(LOAD_FAILED, { detail: errorMessage(err) });
    } finally {
      setLoadingMore(false);
    }
  };

  let content;
  if (!email) {
    content = (
      <p className="social-error" role="alert">
        {NOT_LOGGED_IN}
      </p>
    );
  } else if (feed.error && !feed.data) {
    content = (
      <p className="social-error" role="alert">
        {LOAD_FAILED}
      </p>
    );
  } else if (!feed.data) {
    content = (
      <p className="loading" role="status">
        Chargement...
      </p>
    );
  } else if (feed.data.videos.length === 0) {
    content = <p className="social-empty">{EMPTY}</p>;
  } else {
    content = (
      <>
        <ul className="card-grid" aria-label="Vidéos de mes amis">
          {feed.data.videos.map((video) => (
            <li key={video.id}>
              <VideoCard
                video={video}
                onDeleted={feed.reload}
                header={
                  <AuthorRow
                    pseudo={video.user_pseudo || 'inconnu'}
                    profilePicture={video.user_profile_picture}
                    subtitle={video.created_at ? formatRelative(video.created_at) : undefined}
                  >
                    {video.user_pseudo ? <ProfileLinkButton pseudo={video.user_pseudo} /> : null}
                  </AuthorRow>
                }
              />
            </li>
          ))}
        </ul>
        {feed.data.hasMore ? (
          <button
            type="button"
            className="btn btn--secondary social__more"
            onClick={() => void loadMore()}
            disabled={loadingMore}
            aria-busy={loadingMore}
          >
            {loadingMore ? 'Chargement...' : MORE}
          </button>
        ) : null}
      </>
    );
  }

  return (
    <section className="page social" aria-labelledby="feed-title">
      <title>{`${TITLE} · EVO`}</title>
      <header className="social__header">
        <h1 id="feed-title">{TITLE}</h1>
        <p>{INTRO}</p>
      </header>
      {content}
    </section>
  );
}
