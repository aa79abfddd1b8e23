import { Link } from 'react-router-dom';

interface ComingSoonProps {
  title: string;
  description: string;
}

/** Generic page for screens that later slices will fill in: a heading and one sentence. */
export default function ComingSoon({ title, description }: ComingSoonProps) {
  return (
    <section className="page page--center coming-soon" aria-labelledby="coming-soon-title">
      <title>{`${title} · EVO`}</title>
      <h1 id="coming-soon-title">{title}</h1>
      <p>{description}</p>
      <Link to="/" className="btn btn--ghost">
        Retour à l'accueil
      </Link>
    </section>
  );
}
