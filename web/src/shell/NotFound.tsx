import { Link } from 'react-router-dom';

/** Unknown paths. */
export default function NotFound() {
  return (
    <section className="page page--center not-found" aria-labelledby="not-found-title">
      <title>Page introuvable · EVO</title>
      <p className="not-found__code" aria-hidden="true">
        404
      </p>
      <h1 id="not-found-title">Page introuvable</h1>
      <p>La page que tu cherches n'existe pas ou a été déplacée.</p>
      <Link to="/" className="btn btn--primary">
        Retour à l'accueil
      </Link>
    </section>
  );
}
