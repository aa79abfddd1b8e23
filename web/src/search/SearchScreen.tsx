import { useEffect, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { searchRoutes } from '@evo/contracts';
import { useRouteQuery } from '../api/queries';
import { useDebounced } from '../shell/useDebounced';
import { QueryState } from '../shell/ui/QueryState';
import { LoginPrompt } from '../identity/LoginPrompt';
import { useCurrentUser } from '../identity/sessionContext';
import { ProfilePicture } from '../shell/ui/ProfilePicture';
import { FilmIcon, SearchIcon } from '../shell/ui/icons';
import { mediaUrl } from '../videos/types';
import './search.css';

const TITLE = 'Rechercher';
const NOT_LOGGED_IN = 'Connecte-toi pour rechercher des membres et des vidéos.';
const LOAD_FAILED = 'Impossible de charger les résultats.';
/** the server's minimum (domain/src/search/rules.ts, SEARCH_LIMITS.queryMin) */
const QUERY_MIN = 2;

/** /recherche?q=: members by pseudo and videos by title, accents and case aside. */
export default function SearchScreen() {
  const { user } = useCurrentUser();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [draft, setDraft] = useState(q);
  // typed text becomes ?q= once typing pauses (so the page can be shared and comes back with Retour)
  const debounced = useDebounced(draft, 300);
  const fieldId = useId();

  // a search from the top bar while here: the field follows the address
  useEffect(() => setDraft(q), [q]);
  useEffect(() => {
    if (debounced.trim() === q.trim()) return;
    setParams(debounced.trim() ? { q: debounced.trim() } : {}, { replace: true });
  }, [debounced, q, setParams]);

  const query = q.trim();
  const ready = !!user && query.length >= QUERY_MIN;
  const results = useRouteQuery(searchRoutes.search, ready ? {} : null, { search: { q: query } });

  let content;
  if (!user) {
    content = <LoginPrompt message={NOT_LOGGED_IN} />;
  } else if (query.length < QUERY_MIN) {
    content = <p className="search__hint">Tape au moins {QUERY_MIN} caractères : un pseudo ou un titre de vidéo.</p>;
  } else {
    content = (
      <QueryState
        query={results}
        failed={LOAD_FAILED}
        empty={<p role="status">Aucun résultat pour « {query} ».</p>}
        isEmpty={(found) => found.members.length === 0 && found.videos.length === 0}
      >
        {({ members, videos }) => (
          <div className="search__results" aria-busy={results.isFetching}>
            <section aria-labelledby="search-members">
              <h2 id="search-members">Membres ({members.length})</h2>
              {members.length === 0 ? (
                <p className="search__none">Aucun membre.</p>
              ) : (
                <ul className="search__list">
                  {members.map((m) => (
                    <li key={m.pseudo}>
                      <Link className="search__row" to={`/user/${encodeURIComponent(m.pseudo)}`}>
                        <ProfilePicture pseudo={m.pseudo} profilePicture={m.profile_picture} size={48} alt="" />
                        <span className="search__text">
                          <strong>@{m.pseudo}</strong>
                          <span className="search__sub">{m.bio || 'Aucune bio'}</span>
                        </span>
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </section>
            <section aria-labelledby="search-videos">
              <h2 id="search-videos">Vidéos ({videos.length})</h2>
              {videos.length === 0 ? (
                <p className="search__none">Aucune vidéo.</p>
              ) : (
                <ul className="search__list">
                  {videos.map((v) => {
                    const poster = mediaUrl(v.poster, 'posters');
                    return (
                      <li key={v.id}>
                        <Link className="search__row" to={`/video/${v.id}`}>
                          {poster ? (
                            <img className="search__poster" src={poster} alt="" width={48} height={64} loading="lazy" />
                          ) : (
                            <span className="search__poster search__poster--none" aria-hidden="true">
                              <FilmIcon size={22} />
                            </span>
                          )}
                          <span className="search__text">
                            <strong>{v.title || 'Sans titre'}</strong>
                            <span className="search__sub">
                              @{v.user_pseudo}
                              {v.status !== 'publique' ? ` · ${v.status}` : ''}
                            </span>
                          </span>
                        </Link>
                      </li>
                    );
                  })}
                </ul>
              )}
            </section>
          </div>
        )}
      </QueryState>
    );
  }

  return (
    <section className="page search" aria-labelledby="search-title">
      <title>{query ? `${query} · ${TITLE} · EVO` : `${TITLE} · EVO`}</title>
      <h1 id="search-title">{TITLE}</h1>
      <form role="search" className="search__form" onSubmit={(event) => event.preventDefault()}>
        <label htmlFor={fieldId} className="sr-only">
          Un pseudo ou un titre de vidéo
        </label>
        <SearchIcon size={20} />
        <input
          id={fieldId}
          type="search"
          placeholder="Un pseudo ou un titre de vidéo"
          autoComplete="off"
          enterKeyHint="search"
          maxLength={100}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
      </form>
      {content}
    </section>
  );
}
