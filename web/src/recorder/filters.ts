/**
 * The 8 face overlays of the recorder (the product screens, "Create video"). Each image is
 * a 100x60 SVG in web/public/filters/, drawn for this project, with the eyes at
 * (30,36) and (70,36) — see OVERLAY_EYE_ANCHOR in overlayPlacement.ts.
 */

export const FILTER_IDS = [
  'pirate',
  'bunny',
  'chapeau',
  'lion',
  'lutin',
  'cartoon-eyes',
  'evo-mask',
  'funny-face',
] as const;

export type FilterId = (typeof FILTER_IDS)[number];

export interface FaceFilter {
  id: FilterId;
  /** French display name. */
  name: string;
  /** Same-origin image URL (keeps the canvas untainted, so it can be recorded). */
  src: string;
}

const NAMES: Record<FilterId, string> = {
  pirate: 'Pirate',
  bunny: 'Lapin',
  chapeau: 'Chapeau',
  lion: 'Lion',
  lutin: 'Lutin',
  'cartoon-eyes': 'Gros yeux',
  'evo-mask': 'Masque EVO',
  'funny-face': 'Tête rigolote',
};

export const FACE_FILTERS: readonly FaceFilter[] = FILTER_IDS.map((id) => ({
  id,
  name: NAMES[id],
  src: `/filters/${id}.svg`,
}));

export const NO_FILTER_LABEL = 'Aucun filtre';
