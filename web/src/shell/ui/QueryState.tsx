import type { ReactNode } from 'react';
import { errorMessage } from '../../api/http';

/** What `QueryState` reads of a query (`useQuery`'s result). */
export interface ShownQuery<T> {
  data: T | undefined;
  error: unknown;
  refetch: () => unknown;
}

export interface QueryStateProps<T> {
  query: ShownQuery<T>;
  /**
   * What a failed first load says (`role="alert"`), or what to show for the error; left out, nothing
   * is shown (the failures the product error catalogue logs to the console only).
   */
  failed?: string | ((error: unknown) => ReactNode);
  /** Under the failure, the server's own message when it gave one. */
  detail?: boolean;
  /** Offer "Réessayer" under the failure (default true). */
  retry?: boolean;
  /** What an empty answer says; left out, the answer is shown whatever it holds. */
  empty?: ReactNode;
  /** Whether an answer counts as empty (default: an empty list). */
  isEmpty?: (data: T) => boolean;
  /** Said while the first answer is awaited (default 'Chargement...'). */
  loading?: ReactNode;
  /** Classes added to the waiting text, e.g. to hold the place of what it waits for. */
  loadingClassName?: string;
  children: (data: T) => ReactNode;
}

export const LOADING = 'Chargement...';
export const RETRY = 'Réessayer';

const isEmptyList = (data: unknown) => Array.isArray(data) && data.length === 0;

/**
 * The one presentation of loaded data: 'Chargement...' until the first answer, the screen's failure
 * text (with "Réessayer") when it failed, its empty text when there is nothing, else the data.
 * An answer already shown stays on screen while it is asked again, even if that fails.
 */
export function QueryState<T>({
  query,
  failed,
  detail = false,
  retry = true,
  empty,
  isEmpty = isEmptyList,
  loading = LOADING,
  loadingClassName,
  children,
}: QueryStateProps<T>) {
  const { data, error } = query;
  if (data !== undefined) {
    if (empty !== undefined && isEmpty(data)) return <div className="load-state load-state--empty">{empty}</div>;
    return <>{children(data)}</>;
  }
  if (error) {
    if (failed === undefined) return null;
    const server = detail ? errorMessage(error) : undefined;
    return (
      <div className="load-state load-state--failed" role="alert">
        {typeof failed === 'function' ? (
          failed(error)
        ) : (
          <div>
            <p>{failed}</p>
            {server && server !== failed ? <p className="form-error__detail">{server}</p> : null}
          </div>
        )}
        {retry ? (
          <button type="button" className="btn btn--secondary btn--small" onClick={() => void query.refetch()}>
            {RETRY}
          </button>
        ) : null}
      </div>
    );
  }
  return (
    <p className={loadingClassName ? `loading ${loadingClassName}` : 'loading'} role="status">
      {loading}
    </p>
  );
}
