import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { SearchIcon } from '../shell/ui/icons';
import { searchPath } from './api';

/**
 * The top bar's search field (members by pseudo, videos by title): Enter opens /recherche. On a
 * wide screen it sits in the bar; on a phone, at the top of the menu panel.
 */
export function SearchBox({ id, onDone }: { id: string; onDone?: () => void }) {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!query.trim()) return;
    navigate(searchPath(query));
    setQuery('');
    onDone?.();
  };
  return (
    <form role="search" className="topbar__search" onSubmit={onSubmit}>
      <label htmlFor={id} className="sr-only">
        Chercher un membre ou une vidéo
      </label>
      <SearchIcon size={18} />
      <input
        id={id}
        type="search"
        placeholder="Rechercher"
        autoComplete="off"
        enterKeyHint="search"
        maxLength={100}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
    </form>
  );
}
