import { Link } from 'react-router-dom';
import { useCurrentUser } from '../identity/sessionContext';
import { profilePath } from '../shell/paths';
import { Carousel } from './Carousel';
import { HomeVideos } from './HomeVideos';

/** the product rule "Home (/)". */
export default function HomeScreen() {
  const { user } = useCurrentUser();
  return (
    <div className="page home">
      <title>Accueil · EVO</title>
      <section className="home__welcome" aria-labelledby="home-title">
        <h1 id="home-title">
          {user?.pseudo ? `Bienvenue sur EVO, ${user.pseudo}\u00a0!` : 'Bienvenue sur EVO\u00a0!'}
        </h1>
        <p>Partage tes vidéos, lance un live et suis tes amis : tout se passe ici, entre amis.</p>
        <div className="home__actions">
          <Link to="/feed" className="btn btn--primary">
            Vidéos de mes amis
          </Link>
          <Link to="/users-with-videos" className="btn btn--secondary">
            Suggestions pour toi
          </Link>
          <Link to={profilePath(user)} className="btn btn--secondary">
            Voir mon profil
          </Link>
        </div>
      </section>
      <Carousel />
      <HomeVideos />
    </div>
  );
}
