import { useRef, useState } from 'react';
import { errorMessage } from '../api/http';
import { useCurrentUser } from '../identity/sessionContext';
import { useToast } from '../shell/toast';
import { VideoCard } from '../videos/VideoCard';
import { followUser, type SuggestedUser } from './api';
import { AuthorRow, ProfileLinkButton } from './AuthorRow';
import { useQueryClient } from '@tanstack/react-query';
import { socialRoutes } from '@evo/contracts';
import { updateRoute, useRouteQuery } from '../api/queries';
import { QueryState } from '../shell/ui/QueryState';
import './social.css';
import { LoginPrompt } from '../identity/LoginPrompt';

const TITLE = 'Suggestions pour toi';
const INTRO = 'Des créateurs que tu pourrais suivre, avec leur première vidéo.';
const LOAD_FAILED = 'Impossible de charger le feed';
const EMPTY = 'Aucune suggestion disponible.';
const FOLLOW_FAILED = '❌ Erreur lors du follow';
const followed = (pseudo: string) => `✅ Tu suis maintenant ${pseudo}`;

/** the product screens, "Suggestions (/users-with-videos)". */
export default function SuggestionsScreen() {
  const { user } = useCurrentUser();
  const toast = useToast();
  const email = user?.email ?? null;
  const client = useQueryClient();
  const search = { currentEmail: email };
  const list = useRouteQuery(socialRoutes.suggestions, email ? {} : null, { search });
  const [pending, setPending] = useState<ReadonlySet<string>>(new Set());
  const headingRef = useRef<HTMLHeadingElement>(null);

  const follow = async (target: SuggestedUser) => {
    if (!email || pending.has(target.pseudo)) return;
    setPending((current) => new Set(current).add(target.pseudo));
    try {
      await followUser(email, target.pseudo);
      toast.success(followed(target.pseudo));
      updateRoute(client, socialRoutes.suggestions, {}, (users) => users.filter((u) => u.pseudo !== target.pseudo));
      headingRef.current?.focus();
    } catch (err) {
      toast.error(FOLLOW_FAILED, { detail: errorMessage(err) });
    } finally {
      setPending((current) => {
        const next = new Set(current);
        next.delete(target.pseudo);
        return next;
      });
    }
  };

  let content;
  if (!email) {
    content = <LoginPrompt />;
  } else {
    content = (
      <QueryState query={list} failed={LOAD_FAILED} retry={false} empty={EMPTY}>
        {(users) => (
          <ul className="grid-list card-grid" aria-label="Utilisateurs suggérés">
            {users.map((suggested) => {
              const header = (
                <AuthorRow pseudo={suggested.pseudo} profilePicture={suggested.profile_picture}>
                  <ProfileLinkButton pseudo={suggested.pseudo} />
                  <button
                    type="button"
                    className="btn btn--primary btn--small"
                    aria-label={`Suivre @${suggested.pseudo}`}
                    disabled={pending.has(suggested.pseudo)}
                    onClick={() => void follow(suggested)}
                  >
                    Suivre
                  </button>
                </AuthorRow>
              );
              const first = suggested.videos[0];
              return (
                <li key={suggested.pseudo}>
                  {first ? (
                    <VideoCard video={first} header={header} onDeleted={() => void list.refetch()} />
                  ) : (
                    <div className="card">{header}</div>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </QueryState>
    );
  }

  return (
    <section className="page social" aria-labelledby="suggestions-title">
      <title>{`${TITLE} · EVO`}</title>
      <header className="social__header">
        <h1 id="suggestions-title" ref={headingRef} tabIndex={-1}>
          {TITLE}
        </h1>
        <p>{INTRO}</p>
      </header>
      {content}
    </section>
  );
}
