import { z, type ZodTypeAny } from 'zod';

/**
 * The one rule for text members write (comments, messages, bios, titles, descriptions, report
 * reasons, pseudos, gift names), applied before any other rule looks at it, at every entry:
 * - lone UTF-16 surrogates (`\ud800` alone: not a character) are removed;
 * - control characters are removed: terminal escape sequences whole (ESC [ 31m, OSC titles...), then
 *   NUL, BEL, ESC and the rest of C0/C1; line breaks are kept as `\n` (CR LF, CR and U+2028/9
 *   become `\n`), a tab becomes a space;
 * - NFKC: compatibility forms become their plain letters (full-width `ｌｅａ` is `lea`, ligatures
 *   and superscripts are spelled out), so what looks the same is stored the same;
 * - format characters (Unicode category Cf) are removed: zero-width spaces and joiners, the
 *   bidirectional overrides and isolates (U+202E turns text around), soft hyphens, BOMs, invisible
 *   operators, the tag characters (U+E0000 block); so are the other default-ignorable fillers
 *   (U+3164 HANGUL FILLER...), the variation selectors of emoji aside. Kept only where emoji need
 *   them: a zero-width joiner between two pictographs (👩‍💻) and the tags of a subdivision flag
 *   (U+1F3F4, 2 to 6 tag letters or digits, U+E007F: 🏴󠁧󠁢󠁳󠁣󠁴󠁿);
 * - combining marks are capped at COMBINING_MARKS_MAX per base character (800 stacked accents
 *   spill over the lines around them; real scripts need 3 at most once composed);
 * - trimmed of white space and braille blanks (U+2800), and text with nothing visible left (only
 *   blanks) is empty: the field's own rule refuses it with its French 'empty' message.
 */
export const COMBINING_MARKS_MAX = 4;

const PICTOGRAPH = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\u{FE0F}]/u;
/** format characters, and the other invisible fillers (U+3164, U+115F, ...), variation selectors aside (emoji use them) */
const INVISIBLE = '(?![\\u{FE00}-\\u{FE0F}\\u{E0100}-\\u{E01EF}])[\\p{Cf}\\p{Default_Ignorable_Code_Point}]';
const HAS_FORMAT = new RegExp(INVISIBLE, 'u');
const IS_FORMAT = new RegExp(`^${INVISIBLE}$`, 'u');
const BLACK_FLAG = 0x1f3f4;
const FLAG_TAG = /^[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]$/u;
const CANCEL_TAG = 0xe007f;
/** a high surrogate not followed by a low one, or a low one not preceded by a high one */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** ECMA-48 sequences: CSI (ESC [ or U+009B ... final byte), OSC / DCS / SOS / PM / APC strings, two-character escapes */
const ESCAPE_SEQUENCE =
  // eslint-disable-next-line no-control-regex -- control characters are what it finds
  /(?:\u001B\[|\u009B)[0-?]*[ -/]*[@-~]|\u001B[\]PX^_][^\u0007\u001B\u009C]*(?:\u0007|\u001B\\|\u009C)?|\u001B[ -/]*[0-~]?/g;
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const CONTROL = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F]/g;
const HAS_MARK = /\p{M}/u;
const IS_MARK = /^\p{M}$/u;
/** what renders as nothing: white space (JS's \s: Unicode spaces, line breaks, BOM) and the braille blank */
const BLANK_EDGES = /^[\s\u2800]+|[\s\u2800]+$/gu;
/** nothing but blanks and variation selectors (which draw nothing on their own) */
const RENDERS_EMPTY = /^(?:[\s\u2800]|[\u{FE00}-\u{FE0F}]|[\u{E0100}-\u{E01EF}])*$/u;

function withoutControls(raw: string): string {
  return raw
    .replace(LONE_SURROGATE, '')
    .replace(ESCAPE_SEQUENCE, '')
    .replace(/\r\n?|[\u2028\u2029]/g, '\n')
    .replace(/\t/g, ' ')
    .replace(CONTROL, '');
}

/** The tags of a subdivision flag starting at chars[i] (🏴), as many characters as it spans after it, or 0. */
function flagTagLength(chars: string[], i: number): number {
  let n = 0;
  while (n < 7 && FLAG_TAG.test(chars[i + 1 + n] ?? '')) n++;
  return n >= 2 && chars[i + 1 + n]?.codePointAt(0) === CANCEL_TAG ? n + 1 : 0;
}

function withoutInvisibles(text: string): string {
  if (!HAS_FORMAT.test(text)) return text;
  const chars = Array.from(text);
  const kept: string[] = [];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i];
    if (c.codePointAt(0) === BLACK_FLAG) {
      const tags = flagTagLength(chars, i);
      kept.push(...chars.slice(i, i + 1 + tags));
      i += tags;
      continue;
    }
    if (!IS_FORMAT.test(c)) {
      kept.push(c);
      continue;
    }
    if (c === '\u200D' && PICTOGRAPH.test(kept[kept.length - 1] ?? '') && PICTOGRAPH.test(chars[i + 1] ?? '')) {
      kept.push(c);
    }
  }
  return kept.join('');
}

function withCappedMarks(text: string): string {
  if (!HAS_MARK.test(text)) return text;
  let marks = 0;
  let out = '';
  for (const c of text) {
    if (!IS_MARK.test(c)) {
      marks = 0;
      out += c;
    } else if (++marks <= COMBINING_MARKS_MAX) out += c;
  }
  return out;
}

export function cleanUserText(raw: string): string {
  const text = withCappedMarks(withoutInvisibles(withoutControls(raw).normalize('NFKC')));
  return RENDERS_EMPTY.test(text) ? '' : text.replace(BLANK_EDGES, '');
}

/** A string field whose value is cleaned (`cleanUserText`) before `schema` judges it. */
export const cleanedText = <S extends ZodTypeAny>(schema: S) =>
  z.preprocess((v) => (typeof v === 'string' ? cleanUserText(v) : v), schema);
