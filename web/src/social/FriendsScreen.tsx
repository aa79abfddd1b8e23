import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '../api/http';
import { useCurrentUser } from '../identity/sessionContext';
import { useConfirm } from '../shell/confirm';
import { useToast } from '../shell/toast';
import { ProfilePicture } from '../shell/ui/ProfilePicture';
import { unfollowUser, type Friend } from './api';
import { formatCount, userPath } from './format';
import { socialRoutes } from '@evo/contracts';
import { useRouteQuery } from '../api/queries';
import { QueryState } from '../shell/ui/QueryState';
import './social.css';
import { LoginPrompt } from '../identity/LoginPrompt';
import { FeedSwitch } from './FeedSwitch';

const TITLE = 'Mes amis';
const EMPTY = 'Vous ne suivez encore personne';
const NO_BIO = 'Aucune bio';
const UNFOLLOW_CONFIRM = 'Se désabonner de cet utilisateur ?';
const LOAD_FAILED = 'Impossible de charger tes amis.';

/** the product screens, "Friends list ('Mes amis')", at /friends and /friends-list. */
export default function FriendsScreen() {
  const { user } = useCurrentUser();
  const confirm = useConfirm();
  const toast = useToast();
  const email = user?.email ?? null;
  const friends = useRouteQuery(socialRoutes.friends, email ? { email } : null);
  const [pending, setPending] = useState<string | null>(null);

  useEffect(() => {
    if (friends.error) console.warn('Chargement des amis impossible', friends.error);
  }, [friends.error]);

  const unfollow = async (friend: Friend) => {
    if (!email || pending) return;
    if (!(await confirm(UNFOLLOW_CONFIRM, { confirmLabel: 'Se désabonner', danger: true }))) return;
    setPending(friend.pseudo);
    try {
      await unfollowUser(email, friend.pseudo);
      void friends.refetch();
    } catch (err) {
      console.warn('Désabonnement impossible', err);
      if (err instanceof ApiError && err.serverMessage) toast.error(err.serverMessage);
    } finally {
      setPending(null);
    }
  };

  let content;
  if (!email) {
    content = <LoginPrompt />;
  } else {
    content = (
      <QueryState
        query={friends}
        failed={LOAD_FAILED}
        empty={
          <>
            <p>{EMPTY}</p>
            <Link to="/users-with-videos" className="btn btn--primary social__cta">
              Découvrir des créateurs
            </Link>
          </>
        }
      >
        {(list) => (
          <ul className="friends" aria-label="Personnes que tu suis" aria-busy={friends.isFetching}>
            {list.map((friend) => (
              <li key={friend.pseudo} className="friend card">
                <ProfilePicture pseudo={friend.pseudo} profilePicture={friend.profile_picture} size={56} alt="" />
                <div className="friend__text">
                  <h2 className="friend__pseudo">
                    <Link to={userPath(friend.pseudo)}>@{friend.pseudo}</Link>
                  </h2>
                  <p className={friend.bio ? 'friend__bio' : 'friend__bio friend__bio--empty'}>
                    {friend.bio || NO_BIO}
                  </p>
                  <ul className="friend__counts">
                    <li>
                      <strong>{formatCount(friend.followers)}</strong> {friend.followers >= 2 ? 'abonnés' : 'abonné'}
                    </li>
                    <li>
                      <strong>{formatCount(friend.videos_count)}</strong>{' '}
                      {friend.videos_count >= 2 ? 'vidéos' : 'vidéo'}
                    </li>
                    <li>
                      <strong>{formatCount(friend.likes)}</strong> j'aime
                    </li>
                  </ul>
                </div>
                <div className="friend__actions">
                  <Link
                    to={userPath(friend.pseudo)}
                    className="btn btn--secondary btn--small"
                    aria-label={`Voir le profil de @${friend.pseudo}`}
                  >
                    Voir le profil
                  </Link>
                  <button
                    type="button"
                    className="btn btn--ghost btn--small"
                    aria-label={`Se désabonner de @${friend.pseudo}`}
                    disabled={pending === friend.pseudo}
                    onClick={() => void unfollow(friend)}
                  >
                    Se désabonner
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </QueryState>
    );
  }

  return (
    <section className="page social" aria-labelledby="friends-title">
      <title>{`${TITLE} · EVO`}</title>
      <FeedSwitch />
      <header className="social__header">
        <h1 id="friends-title">{TITLE}</h1>
        {friends.data && friends.data.length > 0 ? (
          <p>{friends.data.length === 1 ? 'Tu suis 1 personne.' : `Tu suis ${friends.data.length} personnes.`}</p>
        ) : null}
      </header>
      {content}
    </section>
  );
}
