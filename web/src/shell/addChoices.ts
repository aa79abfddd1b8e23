import { RECORDER_PAGE } from '@evo/contracts';
import { CameraIcon, GalleryIcon } from './ui/icons';

/** The two ways to add a video (the bottom bar's add button, the empty home page). */
export const ADD_CHOICES = [
  { to: RECORDER_PAGE, label: 'Filmer une vidéo', hint: 'Avec la caméra et un filtre', Icon: CameraIcon },
  { to: '/upload/video', label: 'Importer une vidéo', hint: 'Depuis la galerie', Icon: GalleryIcon },
] as const;

/**
 * Links to the recorder load a new document: its page alone is served with a policy allowing the
 * face filters' eval (RECORDER_PAGE in @evo/contracts).
 */
export const opensOwnDocument = (to: string) => to === RECORDER_PAGE;
