/**
 * Words a private message may not contain (the product validation rules, "Private message"): French insults,
 * slurs and discriminatory terms. Matching is case-insensitive and ignores accents, punctuation and
 * spacing differences ("Enculé", "ENCULE", "en-culé" is not caught: letters must be contiguous).
 *
 * Most entries match as a substring ("connard" also catches "connards", "connarde"). Short or
 * ambiguous entries (`whole: true`) match only as a whole word, optionally followed by "s", so that
 * ordinary words that contain them ("dispute", "pédestre", "contact", "Mongolie", "ordures
 * ménagères") are not refused.
 */
export interface ProfanityTerm {
  term: string;
  whole?: boolean;
}

const sub = (...terms: string[]): ProfanityTerm[] => terms.map((term) => ({ term }));
const whole = (...terms: string[]): ProfanityTerm[] => terms.map((term) => ({ term, whole: true }));

export const PROFANITY_TERMS: readonly ProfanityTerm[] = [
  // insults
  ...sub(
    'connard',
    'connasse',
    'salope',
    'salaud',
    'salopard',
    'enculé',
    'enculer',
    'fils de pute',
    'fils de chienne',
    'putain',
  ),
  ...sub(
    'pétasse',
    'pouffiasse',
    'grognasse',
    'bâtard',
    'ta gueule',
    'nique ta mère',
    'nique ta race',
    'abruti',
    'crétin',
    'débile',
  ),
  ...sub(
    'imbécile',
    'cassos',
    'trou du cul',
    'tête de nœud',
    'branleur',
    'raclure',
    'enfoiré',
    'sac à merde',
    'sous-merde',
    'va te faire foutre',
  ),
  ...sub('suceuse', 'fiotte', 'tafiole', 'lopette'),
  ...whole('con', 'conne', 'pute', 'idiot', 'fdp', 'ntm', 'bouffon'),
  // homophobic and sexist slurs
  ...sub('gouine', 'tantouze', 'tarlouze', 'travelo'),
  ...whole('pd', 'pédé', 'tapette', 'sale homo', 'sale gay', 'sale trans', 'sale lesbienne'),
  // racist and discriminatory slurs
  ...sub(
    'nègre',
    'bougnoul',
    'youpin',
    'youtre',
    'chinetoque',
    'niakoué',
    'bamboula',
    'sale arabe',
    'sale noir',
    'sale juif',
  ),
  ...sub(
    'sale blanc',
    'sale rebeu',
    'sale renoi',
    'sale musulman',
    'sale gitan',
    'sale chinois',
    'sale race',
    'sous-race',
  ),
  ...whole('negro', 'bicot', 'mongol', 'triso', 'sale handicapé'),
];

/** Lower case, accents removed (é -> e, œ -> oe), anything but letters and digits as one space. */
export function normalizeForMatch(text: string): string {
  return text
    .toLowerCase()
    .replace(/œ/g, 'oe')
    .replace(/æ/g, 'ae')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const PATTERN = new RegExp(
  PROFANITY_TERMS.map(({ term, whole: w }) => {
    const t = escape(normalizeForMatch(term));
    return w ? `(?<![a-z0-9])${t}s?(?![a-z0-9])` : t;
  }).join('|'),
);

/** The first forbidden term found in `text` (normalised), or null. */
export function findProfanity(text: string): string | null {
  const m = PATTERN.exec(normalizeForMatch(text));
  return m ? m[0] : null;
}

export const containsProfanity = (text: string): boolean => findProfanity(text) !== null;
