import { useSearchParams } from 'react-router-dom';

/** The page a paginated admin list shows: its address's `?page=` (1 when absent or not a page number). */
export function usePageParam(): number {
  const [params] = useSearchParams();
  return Math.max(1, Math.floor(Number(params.get('page'))) || 1);
}

interface PaginationProps {
  total: number;
  limit: number;
  /** What the list holds, for the accessible name: 'Pages des membres'. */
  label: string;
}

/**
 * Précédent / Suivant with 'Page x sur y', moving the address's `?page=` (its other parameters kept;
 * page 1 is the address without it). Nothing when everything fits on one page.
 */
export function Pagination({ total, limit, label }: PaginationProps) {
  const page = usePageParam();
  const [, setParams] = useSearchParams();
  const onPage = (nextPage: number) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (nextPage > 1) next.set('page', String(nextPage));
      else next.delete('page');
      return next;
    });
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
