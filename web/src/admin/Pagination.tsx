interface PaginationProps {
  page: number;
  total: number;
  limit: number;
  onPage: (page: number) => void;
  /** What the list holds, for the accessible name: 'Pages des membres'. */
  label: string;
}

/** Précédent / Suivant with 'Page x sur y'. Nothing when everything fits on one page. */
export function Pagination({ page, total, limit, onPage, label }: PaginationProps) {
  const pages = Math.max(1, Math.ceil(total / Math.max(1, limit)));
  if (pages <= 1 && page <= 1) return null;
  return (
    <nav className="admin-pagination" aria-label={label}>
      <button
        type="button"
        className="btn btn--secondary btn--small"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        Précédent
      </button>
      <span aria-live="polite">
        Page {page} sur {pages}
      </span>
      <button
        type="button"
        className="btn btn--secondary btn--small"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        Suivant
      </button>
    </nav>
  );
}
