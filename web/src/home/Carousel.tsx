import { useEffect, useState, type ComponentType } from 'react';
import { Link } from 'react-router-dom';
import { RECORDER_PAGE } from '@evo/contracts';
import { opensOwnDocument } from '../shell/addChoices';
import { CameraIcon, ChevronLeftIcon, ChevronRightIcon, GalleryIcon, LiveIcon } from '../shell/ui/icons';

/** the product rule "Home carousel": three slides, auto-advance every 5000 ms. */
export const CAROUSEL_INTERVAL_MS = 5000;

interface Slide {
  title: string;
  text: string;
  to: string;
  Icon: ComponentType<{ size?: number }>;
}

/** What works first: the live area is only a placeholder (the product rule "Live"), so it comes last. */
const SLIDES: Slide[] = [
  {
    title: 'Créer une Vidéo',
    text: 'Filme avec la caméra et ajoute un filtre.',
    to: RECORDER_PAGE,
    Icon: CameraIcon,
  },
  {
    title: 'Importer depuis la Galerie',
    text: 'Publie une vidéo déjà enregistrée.',
    to: '/upload/video',
    Icon: GalleryIcon,
  },
  { title: 'Démarrer un Live', text: 'Partage un moment en direct avec tes amis.', to: '/live', Icon: LiveIcon },
];

export function Carousel() {
  const [index, setIndex] = useState(0);
  const [paused, setPaused] = useState(false);
  const count = SLIDES.length;

  // Auto-advance; paused while the pointer or keyboard focus is inside.
  useEffect(() => {
    if (paused) return;
    const timer = window.setInterval(() => setIndex((current) => (current + 1) % count), CAROUSEL_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [paused, count]);

  const go = (next: number) => setIndex((next + count) % count);

  return (
    <section
      className="carousel"
      aria-roledescription="carrousel"
      aria-label="À la une"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setPaused(false);
      }}
    >
      <div className="carousel__viewport" aria-live={paused ? 'polite' : 'off'}>
        {SLIDES.map((slide, i) => (
          <div
            key={slide.to}
            className={`carousel__slide carousel__slide--${i}`}
            role="group"
            aria-roledescription="diapositive"
            aria-label={`${i + 1} sur ${count} : ${slide.title}`}
            hidden={i !== index}
          >
            <Link to={slide.to} reloadDocument={opensOwnDocument(slide.to)} className="carousel__link">
              <slide.Icon size={44} />
              <span className="carousel__title">{slide.title}</span>
              <span className="carousel__text">{slide.text}</span>
            </Link>
          </div>
        ))}
      </div>
      <div className="carousel__controls">
        <button type="button" className="icon-button" aria-label="Diapositive précédente" onClick={() => go(index - 1)}>
          <ChevronLeftIcon />
        </button>
        <div className="carousel__dots">
          {SLIDES.map((slide, i) => (
            <button
              key={slide.to}
              type="button"
              className="carousel__dot"
              aria-label={`Aller à la diapositive ${i + 1} : ${slide.title}`}
              aria-current={i === index ? 'true' : undefined}
              onClick={() => go(i)}
            />
          ))}
        </div>
        <button type="button" className="icon-button" aria-label="Diapositive suivante" onClick={() => go(index + 1)}>
          <ChevronRightIcon />
        </button>
      </div>
    </section>
  );
}
