/** 'Chargement...': the Suspense fallback while a screen's code is fetched, and a screen's line while its first answer is awaited. */
export function Loading() {
  return (
    <p className="loading" role="status">
      Chargement...
    </p>
  );
}
