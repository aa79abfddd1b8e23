import { CameraIcon, GalleryIcon } from './ui/icons';

/** The two ways to add a video (the bottom bar's add button, the empty home page). */
export const ADD_CHOICES = [
  { to: '/create', label: 'Filmer une vidéo', hint: 'Avec la caméra et un filtre', Icon: CameraIcon },
  { to: '/upload/video', label: 'Importer une vidéo', hint: 'Depuis la galerie', Icon: GalleryIcon },
] as const;
