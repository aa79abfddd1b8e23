import type { ReactNode } from 'react';
import { TextField } from '../shell/ui/TextField';

/** The search line above an admin list: its field, and how many rows there are (`count`, when known). */
export function AdminSearch({
  id,
  label,
  placeholder,
  value,
  onValue,
  maxLength,
  count,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onValue: (value: string) => void;
  maxLength?: number;
  count: ReactNode;
}) {
  return (
    <div className="admin-toolbar">
      <TextField
        id={id}
        label={label}
        fieldClassName="admin-toolbar__search"
        type="search"
        placeholder={placeholder}
        autoComplete="off"
        maxLength={maxLength}
        value={value}
        onValue={onValue}
      />
      {count !== null ? (
        <p className="admin-toolbar__count" aria-live="polite">
          {count}
        </p>
      ) : null}
    </div>
  );
}

/** "Recharger": asks the list's query again, disabled while it is asked. */
export function ReloadButton({ query }: { query: { refetch: () => unknown; isFetching: boolean } }) {
  return (
    <button
      type="button"
      className="btn btn--secondary btn--small"
      onClick={() => void query.refetch()}
      disabled={query.isFetching}
    >
      Recharger
    </button>
  );
}
