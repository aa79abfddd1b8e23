import { useEffect, useReducer } from 'react';
import { isAbortError } from '../api/http';
import { useCurrentUser } from '../identity/sessionContext';
import { fetchFeedPage } from './feed/feedApi';
import { feedReducer, initialFeedState, isEmpty, isFailedEmpty, pageToLoad } from './feed/feedState';
import { VerticalFeed } from './feed/VerticalFeed';
import './social.css';
import './feed/feed.css';
import { LoginPrompt } from '../identity/LoginPrompt';
import { FeedSwitch } from './FeedSwitch';

const TITLE = 'Feed Amis';
const NOT_LOGGED_IN = 'Utilisateur non connecté';
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
          <LoginPrompt message={NOT_LOGGED_IN} />
        </div>
      )}
    </section>
  );
}

function Feed({ email }: { email: string }) {
  const [state, dispatch] = useReducer(feedReducer, initialFeedState);
  // the page in flight stays asked (so that scrolling back up does not cancel it), else the one due
  const wanted = state.loading ? state.next : pageToLoad(state);
  const wantedKey = wanted ? `${wanted.source}:${wanted.page}` : null;

  useEffect(() => {
    if (!wanted) return;
    const controller = new AbortController();
    dispatch({ type: 'pageRequested' });
    fetchFeedPage(email, wanted, controller.signal).then(
      ({ videos, more }) => {
        if (!controller.signal.aborted) dispatch({ type: 'pageLoaded', ...wanted, videos, more });
      },
      (err: unknown) => {
        if (controller.signal.aborted || isAbortError(err)) return;
        console.warn('Chargement du feed impossible', err);
        dispatch({ type: 'pageFailed', ...wanted });
      },
    );
    return () => controller.abort();
    // wantedKey names `wanted`
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [email, wantedKey]);

  const retry = () => dispatch({ type: 'retry' });

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
