import type { Flash } from './useFlash';

/**
 * The inline message of a form. Both live regions stay mounted, so that screen readers
 * announce what appears in them (polite for successes, assertive for errors).
 */
export function FlashMessage({ flash, id }: { flash: Flash | null; id?: string }) {
  return (
    <div id={id} className="flash">
      <div role="status" aria-live="polite">
        {flash?.kind === 'success' ? (
          <p className="alert alert--success flash__msg flash__msg--success">{flash.message}</p>
        ) : null}
      </div>
      <div role="alert" aria-live="assertive">
        {flash?.kind === 'error' ? (
          <div className="alert alert--danger flash__msg flash__msg--error">
            <p>{flash.message}</p>
            {flash.detail ? <p className="flash__detail">{flash.detail}</p> : null}
          </div>
        ) : null}
      </div>
    </div>
  );
}
