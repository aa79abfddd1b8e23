import { useEffect, useId, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { ApiError } from '../api/http';
import { NOT_LOGGED_IN } from '../identity/LoginPrompt';
import { useCurrentUser } from '../identity/sessionContext';
import { useToast } from '../shell/toast';
import { ProfilePicture } from '../shell/ui/ProfilePicture';
import { PROFILE_DELETE_CONFIRM } from '../videos/useVideoActions';
import { VideoCard } from '../videos/VideoCard';
import { followUser, noteFollowing, unfollowUser, type Profile, type UserStats } from './api';
import { useConfirm } from '../shell/confirm';
import { catalogueForPath, formatCount, sendMessagePath } from './format';
import { useQueryClient } from '@tanstack/react-query';
import { socialRoutes } from '@evo/contracts';
import { fetchRoute, updateRoute, useRouteQuery } from '../api/queries';
import './social.css';
import { Loading } from '../shell/Loading';

const LOAD_FAILED = 'Profil introuvable ou erreur serveur';
const NO_VIDEOS = 'Aucune vidéo pour le moment';
const MY_VIDEOS = 'Mes vidéos';
const MORE_VIDEOS = 'Voir plus de vidéos';
/** the friends list's confirmation (the product validation rules, "Confirmations") */
const UNFOLLOW_CONFIRM = 'Se désabonner de cet utilisateur ?';
const UNFOLLOW_HINT = 'Appuie pour te désabonner';

type ProfileVideo = Profile['videos'][number];

/** The pages after the first, asked for one at a time; forgotten when the first page is loaded again. */
interface MorePages {
  first: Profile | undefined;
  videos: ProfileVideo[];
  next: number | null;
  loading: boolean;
}

function useMorePages(pseudo: string, first: Profile | undefined) {
  const [state, setState] = useState<MorePages>({ first: undefined, videos: [], next: null, loading: false });
  const current: MorePages =
    state.first === first ? state : { first, videos: [], next: first?.next_page ?? null, loading: false };
  const loadMore = async () => {
    if (!first || current.next === null || current.loading) return;
    setState({ ...current, loading: true });
    try {
      const page = await fetchRoute(socialRoutes.profile, { pseudo }, { page: current.next });
      setState((s) =>
        s.first !== first ? s : { first, videos: [...s.videos, ...page.videos], next: page.next_page, loading: false },
      );
    } catch (err) {
      console.warn('Chargement des vidéos suivantes impossible', err);
      setState((s) => (s.first !== first ? s : { ...s, loading: false }));
    }
  };
  // an upload between two pages shifts them: a video is shown once
  const seen = new Set<number>();
  const videos = [...(first?.videos ?? []), ...current.videos].filter((v) => !seen.has(v.id) && seen.add(v.id));
  return { videos, hasMore: current.next !== null, loading: current.loading, loadMore };
}

/** Logs a failure (the product error catalogue: console only) and shows the server's own French message if it sent one. */
function useConsoleError(label: string, error: unknown) {
  useEffect(() => {
    if (error) console.warn(label, error);
  }, [label, error]);
}

/** the product screens, "Public profile (/user/{pseudo})", also /profile (current user). */
export default function ProfileScreen() {
  const params = useParams();
  const { user } = useCurrentUser();
  const pseudo = (params.pseudo ?? user?.pseudo ?? '').trim();
  // A new pseudo is a new page: no follow state carried over.
  return <ProfilePage key={pseudo} pseudo={pseudo} />;
}

function ProfilePage({ pseudo }: { pseudo: string }) {
  const { user } = useCurrentUser();
  const toast = useToast();
  const myEmail = user?.email ?? null;
  const isOther = Boolean(myEmail) && pseudo !== (user?.pseudo ?? '').trim();

  const client = useQueryClient();
  const profile = useRouteQuery(socialRoutes.profile, pseudo ? { pseudo } : null);
  const pages = useMorePages(pseudo, profile.data);
  const email = profile.data?.user.email || null;
  // the counters (not who follows whom) are public to members
  // (live: social/live.ts, my own counters when someone follows me)
  const stats = useRouteQuery(socialRoutes.stats, email ? { email } : null);
  const following = useRouteQuery(
    socialRoutes.isFollowing,
    isOther && myEmail && pseudo ? { followerEmail: myEmail, pseudo } : null,
  );
  const setStats = (update: (s: UserStats) => UserStats) => {
    if (email) updateRoute(client, socialRoutes.stats, { email }, update);
  };
  const confirm = useConfirm();
  const unfollowHintId = useId();
  const [followPending, setFollowPending] = useState(false);
  useConsoleError('Chargement des statistiques impossible', stats.error);
  useConsoleError('Vérification du suivi impossible', following.error);

  // a follow or unfollow here sets the cached answer (noteFollowing): the composer knows it too
  const isFollowing = following.data?.isFollowing === true;

  const follow = async () => {
    if (!myEmail || followPending || isFollowing) return;
    setFollowPending(true);
    try {
      await followUser(myEmail, pseudo);
      noteFollowing(client, myEmail, pseudo, true);
      setStats((s) => ({ ...s, followers: s.followers + 1 }));
    } catch (err) {
      console.warn('Abonnement impossible', err);
      if (err instanceof ApiError && err.serverMessage) toast.error(err.serverMessage);
    } finally {
      setFollowPending(false);
    }
  };

  /** "Abonné" is the way out too (as TikTok's "Abonné(e)"), after the friends list's confirmation */
  const unfollow = async () => {
    if (!myEmail || followPending || !isFollowing) return;
    if (!(await confirm(UNFOLLOW_CONFIRM, { confirmLabel: 'Se désabonner', danger: true }))) return;
    setFollowPending(true);
    try {
      await unfollowUser(myEmail, pseudo);
      noteFollowing(client, myEmail, pseudo, false);
      setStats((s) => ({ ...s, followers: Math.max(0, s.followers - 1) }));
      toast.info(`Tu ne suis plus @${pseudo}.`);
    } catch (err) {
      console.warn('Désabonnement impossible', err);
      if (err instanceof ApiError && err.serverMessage) toast.error(err.serverMessage);
    } finally {
      setFollowPending(false);
    }
  };

  if (!pseudo) {
    return (
      <section className="page social" aria-labelledby="profile-title">
        <title>Profil · EVO</title>
        <h1 id="profile-title">Profil</h1>
        <p className="social-error" role="alert">
          {NOT_LOGGED_IN}
        </p>
        <Link to="/login" className="btn btn--primary social__cta">
          Se connecter
        </Link>
      </section>
    );
  }

  if (profile.error && !profile.data) {
    return (
      <section className="page social" aria-labelledby="profile-title">
        <title>{`@${pseudo} · EVO`}</title>
        <h1 id="profile-title" className="sr-only">
          Profil de @{pseudo}
        </h1>
        <div className="alert alert--danger" role="alert">
          {LOAD_FAILED}
        </div>
        <Link to="/" className="btn btn--ghost social__cta">
          Retour à l'accueil
        </Link>
      </section>
    );
  }

  if (!profile.data) {
    return <Loading />;
  }

  const { user: viewed } = profile.data;
  const { videos } = pages;
  const counter = (value: number | undefined) => (value === undefined ? '–' : formatCount(value));

  return (
    <section className="page social profile" aria-labelledby="profile-title">
      <title>{`@${viewed.pseudo} · EVO`}</title>
      <header className="profile__card card">
        <ProfilePicture pseudo={viewed.pseudo} profilePicture={viewed.profile_picture} size={150} />
        <h1 id="profile-title" className="profile__pseudo">
          @{viewed.pseudo}
        </h1>
        {viewed.bio ? <p className="profile__bio">{viewed.bio}</p> : null}
        {!(stats.error && !stats.data) ? (
          <dl className="profile__counters">
            <div>
              <dt>Suivis</dt>
              <dd>{counter(stats.data?.following)}</dd>
            </div>
            <div>
              <dt>Abonnés</dt>
              <dd>{counter(stats.data?.followers)}</dd>
            </div>
            <div>
              <dt>Goûts</dt>
              <dd>{counter(stats.data?.total_likes)}</dd>
            </div>
          </dl>
        ) : null}
        {isOther ? (
          <div className="profile__actions">
            <button
              type="button"
              className={isFollowing ? 'btn btn--following' : 'btn btn--primary'}
              disabled={followPending || following.isFetching}
              aria-busy={followPending}
              title={isFollowing ? UNFOLLOW_HINT : undefined}
              aria-describedby={isFollowing ? unfollowHintId : undefined}
              onClick={() => void (isFollowing ? unfollow() : follow())}
            >
              {isFollowing ? 'Abonné' : '+ Suivre'}
            </button>
            <span id={unfollowHintId} hidden>
              {UNFOLLOW_HINT}
            </span>
            <Link to={sendMessagePath(viewed.pseudo)} className="btn btn--secondary">
              Message privé
            </Link>
            {viewed.pseudo ? (
              <Link to={catalogueForPath(viewed.pseudo)} className="btn btn--secondary">
                Envoyer un cadeau
              </Link>
            ) : null}
          </div>
        ) : null}
        {!isOther && user ? (
          <div className="profile__actions">
            <Link to="/profil/modifier" className="btn btn--primary">
              Modifier le profil
            </Link>
            <Link to="/analytics" className="btn btn--secondary">
              Mes statistiques
            </Link>
            <Link to="/mes-donnees" className="btn btn--secondary">
              Mes données
            </Link>
          </div>
        ) : isOther && user?.is_admin && viewed.pseudo ? (
          <div className="profile__actions">
            <Link to={`/analytics?pseudo=${encodeURIComponent(viewed.pseudo)}`} className="btn btn--secondary">
              Statistiques du créateur
            </Link>
          </div>
        ) : null}
      </header>

      <section className="profile__videos" aria-labelledby="profile-videos-title">
        {videos.length === 0 ? (
          <p id="profile-videos-title" className="load-state load-state--empty">
            {NO_VIDEOS}
          </p>
        ) : (
          <>
            <h2 id="profile-videos-title">{isOther ? `Vidéos de @${viewed.pseudo}` : MY_VIDEOS}</h2>
            <ul className="grid-list card-grid">
              {videos.map((video) => (
                <li key={video.id}>
                  <VideoCard
                    video={video}
                    deleteConfirm={PROFILE_DELETE_CONFIRM}
                    deleteVia="delete"
                    onDeleted={() => {
                      void profile.refetch();
                      void stats.refetch();
                    }}
                  />
                </li>
              ))}
            </ul>
            {pages.hasMore ? (
              <button
                type="button"
                className="btn btn--secondary profile__more"
                disabled={pages.loading}
                aria-busy={pages.loading}
                onClick={() => void pages.loadMore()}
              >
                {pages.loading ? 'Chargement...' : MORE_VIDEOS}
              </button>
            ) : null}
          </>
        )}
      </section>
    </section>
  );
}
