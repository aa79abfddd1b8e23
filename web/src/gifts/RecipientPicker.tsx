import { useId, useState, type RefObject } from 'react';
import { Link } from 'react-router-dom';
import { QueryState, type ShownQuery } from '../shell/ui/QueryState';
import type { Friend } from '../social/api';
import { ProfilePicture } from '../shell/ui/ProfilePicture';
import { receiverByPseudo, type GiftReceiver } from './api';

const LOAD_FAILED = 'Impossible de charger les membres que tu suis.';
export const FOLLOWS_NOBODY = 'Tu ne suis encore personne : suis un membre pour pouvoir lui offrir un cadeau.';
/** how many matches are listed at once (the search narrows the rest) */
const SHOWN = 8;

const normalized = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().trim().replace(/^@/, '');

/**
 * Whom a gift of the catalogue goes to, when no link named them: one of the members the member
 * follows (the people a gift is usually for), found by typing part of their pseudo.
 */
export function RecipientPicker({
  friends,
  value,
  onChange,
  searchRef,
}: {
  /** the members the member follows (GET /api/users/friends/:email) */
  friends: ShownQuery<Friend[]>;
  value: GiftReceiver | null;
  onChange: (receiver: GiftReceiver | null) => void;
  /** the search field, focused when a send is tried without a recipient */
  searchRef?: RefObject<HTMLInputElement | null>;
}) {
  const [query, setQuery] = useState('');
  const searchId = useId();
  const titleId = useId();

  if (value) {
    return (
      <div className="recipient-picker recipient-picker--chosen card" role="group" aria-labelledby={titleId}>
        <p id={titleId}>
          Destinataire : <strong>{value.label}</strong>
        </p>
        <button type="button" className="btn btn--secondary btn--small" onClick={() => onChange(null)}>
          Changer
        </button>
      </div>
    );
  }

  const listOf = (list: Friend[]) => {
    const q = normalized(query);
    const matches = list.filter((f) => normalized(f.pseudo).includes(q));
    return (
      <>
        <label htmlFor={searchId} className="recipient-picker__label">
          Rechercher parmi les membres que tu suis
        </label>
        <input
          ref={searchRef}
          id={searchId}
          type="search"
          className="recipient-picker__search"
          placeholder="Pseudo…"
          autoComplete="off"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
        />
        {matches.length === 0 ? (
          <p className="recipient-picker__empty" role="status">
            Aucun membre suivi ne correspond à « {query.trim()} ».
          </p>
        ) : (
          <ul className="recipient-picker__list" aria-label="Membres que tu suis">
            {matches.slice(0, SHOWN).map((friend) => (
              <li key={friend.pseudo}>
                <button
                  type="button"
                  className="recipient-picker__choice"
                  aria-label={`Offrir à @${friend.pseudo}`}
                  onClick={() => onChange(receiverByPseudo(friend.pseudo))}
                >
                  <ProfilePicture pseudo={friend.pseudo} profilePicture={friend.profile_picture} size={32} alt="" />
                  <span>@{friend.pseudo}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
        {matches.length > SHOWN ? (
          <p className="recipient-picker__more">{matches.length - SHOWN} autres : précise ta recherche.</p>
        ) : null}
      </>
    );
  };

  return (
    <div className="recipient-picker card" role="group" aria-labelledby={titleId}>
      <p id={titleId} className="recipient-picker__title">
        À qui offrir un cadeau ?
      </p>
      <QueryState
        query={friends}
        failed={LOAD_FAILED}
        empty={
          <>
            {FOLLOWS_NOBODY} <Link to="/users-with-videos">Trouver des membres à suivre</Link>
          </>
        }
      >
        {listOf}
      </QueryState>
    </div>
  );
}
