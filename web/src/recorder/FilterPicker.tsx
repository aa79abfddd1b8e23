import { FACE_FILTERS, NO_FILTER_LABEL, type FilterId } from './filters';

interface FilterPickerProps {
  value: FilterId | null;
  onChange: (id: FilterId | null) => void;
}

/** The face-overlay list: one toggle button per filter (image + French name), plus "Aucun filtre". */
export function FilterPicker({ value, onChange }: FilterPickerProps) {
  return (
    <fieldset className="filter-picker">
      <legend>Filtres de visage</legend>
      <ul className="filter-picker__list">
        <li>
          <button
            type="button"
            className="filter-picker__button"
            aria-pressed={value === null}
            onClick={() => onChange(null)}
          >
            <svg className="filter-picker__image" viewBox="0 0 100 60" aria-hidden="true" focusable="false">
              <circle cx="50" cy="30" r="20" fill="none" stroke="currentColor" strokeWidth="5" />
              <path d="M36 44 64 16" stroke="currentColor" strokeWidth="5" strokeLinecap="round" />
            </svg>
            <span className="filter-picker__name">{NO_FILTER_LABEL}</span>
          </button>
        </li>
        {FACE_FILTERS.map((filter) => (
          <li key={filter.id}>
            <button
              type="button"
              className="filter-picker__button"
              aria-pressed={value === filter.id}
              data-filter={filter.id}
              onClick={() => onChange(filter.id)}
            >
              <img className="filter-picker__image" src={filter.src} alt="" width={100} height={60} />
              <span className="filter-picker__name">{filter.name}</span>
            </button>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}
