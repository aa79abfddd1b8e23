import { useEffect, useMemo, useReducer } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useCurrentUser } from '../identity/sessionContext';
import { feedPagesOf, feedQuery } from './feed/feedApi';
import { feedReducer, initialFeedState, isEmpty, isFailedEmpty, pageToLoad } from './feed/feedState';
import { VerticalFeed } from './feed/VerticalFeed';
import './social.css';
import './feed/feed.css';
import { LoginPrompt } from '../identity/LoginPrompt';
import { FeedSwitch } from './FeedSwitch';

const TITLE = 'Feed Amis';
const LOAD_FAILED = 'Impossible de charger le feed amis';
/** the other members' videos (suggestions) failed to load (the product error catalogue) */
const DISCOVER_FAILED = 'Impossible de charger le feed';
const EMPTY = 'Aucun contenu';

/**
 * "Pour toi" (/feed), the product screens, "Friends feed ('Feed Amis')" as a vertical feed: one video per
 * screen between the bars, the friends' videos first, then other members' videos, loaded a page
 * at a time as the member nears the end.
 */
export default function FriendsFeedScreen() {
  const { user } = useCurrentUser();
  const email = user?.email ?? null;
  return (
    <section className="page page--fill feed-page" aria-labelledby="feed-title">
      <title>{`${TITLE} · EVO`}</title>
      <h1 id="feed-title" className="sr-only" tabIndex={-1}>
        {TITLE}
      </h1>
      <FeedSwitch dark />
      {email ? (
        <Feed key={email} email={email} />
      ) : (
        <div className="feed">
          <LoginPrompt />
        </div>
      )}
    </section>
  );
}

function Feed({ email }: { email: string }) {
  const [state, dispatch] = useReducer(feedReducer, initialFeedState);
  const query = useInfiniteQuery(feedQuery(email));
  const { data, isFetching, isError, error, fetchNextPage, refetch } = query;
  const pages = useMemo(() => feedPagesOf({ data, isFetching, isError }), [data, isFetching, isError]);
  useEffect(() => dispatch({ type: 'pages', ...pages }), [pages]);
  useEffect(() => {
    if (error) console.warn('Chargement du feed impossible', error);
  }, [error]);

  // the next page once the member nears the end (the first one is asked as the screen mounts); what
  // the cache holds now, the reducer hearing of it after this render
  const wanted = data ? pageToLoad({ ...state, ...pages }) : null;
  const wantedKey = wanted ? `${wanted.source}:${wanted.page}` : null;
  useEffect(() => {
    if (wantedKey && !isFetching) void fetchNextPage();
  }, [wantedKey, isFetching, fetchNextPage]);

  const retry = () => {
    dispatch({ type: 'retry' });
    void (data ? fetchNextPage() : refetch());
  };

  if (isFailedEmpty(state)) {
    return (
      <div className="feed">
        <div className="feed__state" role="alert">
          <p className="social-error">{state.failedSource === 'discover' ? DISCOVER_FAILED : LOAD_FAILED}</p>
          <button type="button" className="btn btn--primary" onClick={retry}>
            Réessayer
          </button>
        </div>
      </div>
    );
  }
  if (isEmpty(state)) {
    return (
      <div className="feed">
        <p className="feed__state load-state load-state--empty">{EMPTY}</p>
      </div>
    );
  }
  if (state.items.length === 0) {
    return (
      <div className="feed">
        <p className="feed__state loading" role="status">
          Chargement...
        </p>
      </div>
    );
  }
  return <VerticalFeed state={state} dispatch={dispatch} onRetry={retry} />;
}
