import { useId } from 'react';
import { formatDateTime, isoFromLocalInput, localInputFromIso } from './format';

interface AsOfPickerProps {
  asOf: string | null;
  onChange: (iso: string | null) => void;
}

/** 'Données au' date and time of a stats or audit page; empty means now. */
export function AsOfPicker({ asOf, onChange }: AsOfPickerProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="admin-asof">
      <div className="field admin-asof__field">
        <label htmlFor={id}>Données au</label>
        <input
          id={id}
          type="datetime-local"
          value={localInputFromIso(asOf)}
          max={localInputFromIso(new Date().toISOString())}
          aria-describedby={hintId}
          onChange={(event) => onChange(isoFromLocalInput(event.target.value))}
        />
      </div>
      {asOf ? (
        <button type="button" className="btn btn--secondary btn--small" onClick={() => onChange(null)}>
          Revenir à maintenant
        </button>
      ) : null}
      <p id={hintId} className="admin-asof__hint">
        {asOf ? `Chiffres tels qu'ils étaient le ${formatDateTime(asOf)}.` : 'Vide : chiffres actuels.'}
      </p>
    </div>
  );
}
