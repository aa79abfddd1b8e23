import unhomoglyph from 'unhomoglyph';

/**
 * The confusables skeleton of UTS #39 (Unicode security mechanisms): skeleton(X) = NFD(map(NFD(X))),
 * where map replaces every character by its prototype in Unicode's confusables.txt (Cyrillic `е`
 * → `e`, `I` → `l`, `m` → `rn`, ...). The table comes from the npm package `unhomoglyph` (MIT,
 * confusables.txt 13.0, every script, no network at run time).
 */
export const skeleton = (text: string): string => unhomoglyph(text.normalize('NFD')).normalize('NFD');

/**
 * What makes two pseudos look alike: the skeleton of the case-folded skeleton of their NFKC form.
 * Folding between two skeletons also catches look-alikes across case (`Iea` and `lea`: `I` is `l`),
 * while plain case differences are the exact claim's business (`pseudo-<lower-cased>`).
 */
export const pseudoSkeleton = (pseudo: string): string =>
  skeleton(skeleton(pseudo.normalize('NFKC').trim()).toLowerCase());
