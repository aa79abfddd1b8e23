/** Suspense fallback while a screen's code is fetched. */
export function Loading() {
  return (
    <p className="loading" role="status">
      Chargement...
    </p>
  );
}
