import { z, type ZodTypeAny } from 'zod';

/**
 * Text members write (comments, messages, bios, titles, descriptions, report reasons, pseudos),
 * normalised in one place before any rule looks at it:
 * - NFKC: compatibility forms become their plain letters (full-width `ｌｅａ` is `lea`, ligatures
 *   and superscripts are spelled out), so what looks the same is stored the same;
 * - format characters (Unicode category Cf) are removed: zero-width spaces and joiners, the
 *   bidirectional overrides and isolates (U+202E turns text around), soft hyphens, BOMs, invisible
 *   operators, tags; so are the other default-ignorable fillers (U+3164 HANGUL FILLER...), the
 *   variation selectors of emoji aside. Kept only where emoji need them: a zero-width joiner between two pictographs
 *   (👩‍💻) and the tag characters of a flag that follow U+1F3F4 (🏴󠁧󠁢󠁳󠁣󠁴󠁿);
 * - trimmed. Text that is empty once cleaned is empty: the field's own rule refuses it.
 */
const PICTOGRAPH = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\u{FE0F}]/u;
/** format characters, and the other invisible fillers (U+3164, U+115F, ...), variation selectors aside (emoji use them) */
const INVISIBLE = '(?![\\u{FE00}-\\u{FE0F}\\u{E0100}-\\u{E01EF}])[\\p{Cf}\\p{Default_Ignorable_Code_Point}]';
const HAS_FORMAT = new RegExp(INVISIBLE, 'u');
const IS_FORMAT = new RegExp(`^${INVISIBLE}$`, 'u');
const TAG = /[\u{E0020}-\u{E007F}]/u;
const BLACK_FLAG = 0x1f3f4;

export function cleanUserText(raw: string): string {
  const text = raw.normalize('NFKC');
  if (!HAS_FORMAT.test(text)) return text.trim();
  const chars = Array.from(text);
  const kept: string[] = [];
  let inFlagTags = false;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (!IS_FORMAT.test(c)) {
      kept.push(c);
      inFlagTags = c.codePointAt(0) === BLACK_FLAG;
      continue;
    }
    if (c === '\u200D' && PICTOGRAPH.test(kept[kept.length - 1] ?? '') && PICTOGRAPH.test(chars[i + 1] ?? '')) {
      kept.push(c);
      continue;
    }
    if (TAG.test(c) && inFlagTags) {
      kept.push(c);
      continue;
    }
  }
  return kept.join('').trim();
}

/** A string field whose value is cleaned (`cleanUserText`) before `schema` judges it. */
export const cleanedText = <S extends ZodTypeAny>(schema: S) =>
  z.preprocess((v) => (typeof v === 'string' ? cleanUserText(v) : v), schema);
