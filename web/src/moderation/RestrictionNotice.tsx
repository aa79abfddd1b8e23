import { Link } from 'react-router-dom';
import './moderation.css';

/**
 * Why the member cannot do this now (a restriction, in the server's words), shown where they
 * would act, with the way to contest it.
 */
export function RestrictionNotice({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div className="restriction-notice" role="alert">
      <p>{message}</p>
      <Link to="/moderation">Voir la décision et la contester</Link>
    </div>
  );
}
