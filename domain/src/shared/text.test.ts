import { describe, it, expect } from 'vitest';
import { COMBINING_MARKS_MAX, cleanUserText } from './text';
import { pseudoSkeleton } from '../identity/skeleton';
import { checkCommentContent, COMMENT_MESSAGES } from '../comments/rules';
import { checkMessageText, MESSAGING_MESSAGES } from '../messaging/rules';
import {
  MESSAGES,
  RegisterBody,
  bioField,
  descriptionField,
  pseudoField,
  reservationStream,
  videoTitleField,
} from '../identity/rules';
import { reportReasonField } from '../moderation/rules';
import { AdminGiftBody } from '../gifts/admin-rules';

describe('user text is normalised in one place', () => {
  it('removes format characters: zero-width ones, bidirectional overrides, BOMs, soft hyphens', () => {
    expect(cleanUserText('\u200B')).toBe('');
    expect(cleanUserText(' \u200B\u200C\u200D\u2060\uFEFF ')).toBe('');
    expect(cleanUserText('abc\u202Efed')).toBe('abcfed');
    expect(cleanUserText('\u2066iso\u2069lé\u00ADment')).toBe('isolément');
    // other invisible fillers too
    expect(cleanUserText('\u3164')).toBe('');
    expect(cleanUserText('\u115F\u1160')).toBe('');
  });
  it('applies NFKC: full-width letters, ligatures, compatibility spaces', () => {
    expect(cleanUserText('ｌｅａ')).toBe('lea');
    expect(cleanUserText('ﬁn\u3000')).toBe('fin');
    expect(cleanUserText('e\u0301')).toBe('é');
  });
  it('keeps what emoji need: joiners between pictographs, skin tones, variation selectors, flag tags', () => {
    for (const emoji of ['👩‍💻', '👨‍👩‍👧', '👍🏽', '❤️', '🏴󠁧󠁢󠁳󠁣󠁴󠁿']) expect(cleanUserText(emoji)).toBe(emoji.normalize('NFKC'));
    // a joiner elsewhere goes
    expect(cleanUserText('a\u200Db')).toBe('ab');
  });
  it('refuses comments and messages empty once cleaned, and checks lengths after cleaning', () => {
    expect(() => checkCommentContent('\u200B')).toThrow(COMMENT_MESSAGES.empty);
    expect(() => checkCommentContent('\u202E \u200B')).toThrow(COMMENT_MESSAGES.empty);
    expect(checkCommentContent('Bravo\u202E !')).toBe('Bravo !');
    expect(() => checkMessageText('\u200B\u200B')).toThrow(MESSAGING_MESSAGES.empty);
    expect(checkMessageText('salut\u202Etout le monde')).toBe('saluttout le monde');
    expect(checkCommentContent(`${'x'.repeat(1000)}${'\u200B'.repeat(50)}`)).toHaveLength(1000);
  });
  it('cleans bios, titles and pseudos in the registration form', () => {
    const parsed = RegisterBody.parse({
      email: 'a@b.fr',
      pseudo: 'ｌｅａ',
      password: 'motdepasse1',
      bio: 'Ma\u202E bio',
      video_title: '\u200BTitre',
    });
    expect(parsed).toMatchObject({ pseudo: 'lea', bio: 'Ma bio', video_title: 'Titre' });
    expect(
      RegisterBody.safeParse({
        email: 'a@b.fr',
        pseudo: 'lea',
        password: 'motdepasse1',
        bio: '\u200B',
        video_title: 't',
      }).error?.issues[0].message,
    ).toBe(MESSAGES.bioRequired);
    expect(pseudoField.safeParse('l\u200Bea').data).toBe('lea');
  });
});

/** Issue 29 item 9: the payloads of the attack, each through the one rule. */
describe('one text rule: what reached other members unfiltered', () => {
  const TAGS16 = Array.from({ length: 16 }, (_, i) => String.fromCodePoint(0xe0041 + i)).join('');
  it('removes invisible tag characters (U+E0000 block) after an emoji, keeping a subdivision flag whole', () => {
    expect(cleanUserText(`😀${TAGS16}`)).toBe('😀');
    expect(cleanUserText(`Salut\u{E0001}\u{E0020}\u{E007F} toi`)).toBe('Salut toi');
    const scotland = '🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}';
    expect(cleanUserText(`${scotland} Écosse`)).toBe(`${scotland} Écosse`);
    // a black flag followed by something that is not a flag tag sequence keeps the flag only
    expect(cleanUserText(`🏴${TAGS16}`)).toBe('🏴');
    expect(cleanUserText('🏴\u{E0067}\u{E0062}')).toBe('🏴');
  });
  it('removes NUL, BEL and the other control characters, keeping line breaks', () => {
    expect(cleanUserText('a\u0000b')).toBe('ab');
    expect(cleanUserText('ding\u0007 dong')).toBe('ding dong');
    expect(cleanUserText('\u0000\u0007\u0008\u007F\u0085\u009F')).toBe('');
    expect(cleanUserText('ligne 1\r\nligne 2\rligne 3\u2028fin')).toBe('ligne 1\nligne 2\nligne 3\nfin');
    expect(cleanUserText('a\tb')).toBe('a b');
  });
  it('removes ANSI escape sequences whole, not only their ESC', () => {
    expect(cleanUserText('\u001B[31mrouge\u001B[0m')).toBe('rouge');
    expect(cleanUserText('\u001B[2J\u001B[1;1Hvide')).toBe('vide');
    expect(cleanUserText('\u001B]0;titre volé\u0007texte')).toBe('texte');
    expect(cleanUserText('\u001B]8;;https://x.test\u001B\\lien\u001B]8;;\u001B\\')).toBe('lien');
    expect(cleanUserText('\u009B31mrouge')).toBe('rouge');
    expect(cleanUserText('fin\u001B')).toBe('fin');
  });
  it('removes lone surrogates and keeps paired ones', () => {
    expect(cleanUserText('a\ud800b')).toBe('ab');
    expect(cleanUserText('\udc00x\ud83d')).toBe('x');
    expect(cleanUserText('\ud83d\ude00')).toBe('😀');
    expect(cleanUserText('\ud800')).toBe('');
  });
  it(`caps combining marks at ${COMBINING_MARKS_MAX} per base character`, () => {
    const zalgo = `Z${'\u0301\u0316\u0324'.repeat(267)}ut`;
    const cleaned = cleanUserText(zalgo);
    // NFKC composes Z and the acute into Ź first; 4 marks stay on it, of 801
    expect(cleaned.replace(/\p{M}/gu, '')).toBe('Źut');
    expect(cleaned.match(/\p{M}/gu)).toHaveLength(COMBINING_MARKS_MAX);
    // per base: each letter keeps its own
    expect(cleanUserText(`q${'\u0346'.repeat(9)}x${'\u0346'.repeat(9)}`)).toBe(
      `q${'\u0346'.repeat(COMBINING_MARKS_MAX)}x${'\u0346'.repeat(COMBINING_MARKS_MAX)}`,
    );
    // what real writing needs stays: composed accents, Thai, Hindi, keycaps
    for (const text of ['Ça déménage', 'ที่นี่', 'हिन्दी', 'क्षत्रिय', '1️⃣', 'ệ'.normalize('NFD')])
      expect(cleanUserText(text)).toBe(text.normalize('NFKC'));
  });
  it('makes text that renders empty empty: braille blanks, zero-width characters, white space', () => {
    expect(cleanUserText('\u2800\u2800\u2800')).toBe('');
    expect(cleanUserText(' \u2800\u200B\u3000\u00A0\n\uFE0F ')).toBe('');
    expect(cleanUserText('\u2800Bravo\u2800')).toBe('Bravo');
    // inside text a braille blank is a character like another (braille art)
    expect(cleanUserText('⣿\u2800⣿')).toBe('⣿\u2800⣿');
    expect(() => checkCommentContent('\u2800'.repeat(40))).toThrow(COMMENT_MESSAGES.empty);
    expect(() => checkMessageText('\u2800\u200B \u0000')).toThrow(MESSAGING_MESSAGES.empty);
    expect(
      RegisterBody.safeParse({
        email: 'a@b.fr',
        pseudo: 'lea',
        password: 'motdepasse1',
        bio: '\u2800',
        video_title: 't',
      }).error?.issues[0].message,
    ).toBe(MESSAGES.bioRequired);
  });
  it('is the rule of every member-written field: comments, messages, bios, titles, descriptions, reasons, gift names', () => {
    const dirty = `Bon\u0000jour\u001B[31m${TAGS16}\ud800`;
    expect(checkCommentContent(dirty)).toBe('Bonjour');
    expect(checkMessageText(dirty)).toBe('Bonjour');
    expect(bioField.parse(dirty)).toBe('Bonjour');
    expect(videoTitleField.parse(dirty)).toBe('Bonjour');
    expect(descriptionField.parse(dirty)).toBe('Bonjour');
    expect(reportReasonField.parse(dirty)).toBe('Bonjour');
    expect(AdminGiftBody.parse({ name: dirty, emoji: `🌹${TAGS16}`, price: 3 })).toMatchObject({
      name: 'Bonjour',
      emoji: '🌹',
    });
  });
});

describe('look-alike pseudos (UTS #39 skeletons)', () => {
  it('gives Latin, Cyrillic, Greek and full-width look-alikes one skeleton', () => {
    const lea = pseudoSkeleton('lea');
    for (const p of ['lеa', 'leа', 'ｌｅａ', 'Lea', 'LEA', 'Iea', 'lеа']) expect(pseudoSkeleton(p), p).toBe(lea);
    expect(pseudoSkeleton('ΑΒΕ')).toBe(pseudoSkeleton('abe'));
    expect(pseudoSkeleton('rnia')).toBe(pseudoSkeleton('mia'));
    expect(pseudoSkeleton('Ines')).toBe(pseudoSkeleton('lnes'));
    expect(pseudoSkeleton('hugo0')).toBe(pseudoSkeleton('hugoO'));
  });
  it('keeps different pseudos apart', () => {
    expect(pseudoSkeleton('léa')).not.toBe(pseudoSkeleton('lea'));
    expect(pseudoSkeleton('lea2')).not.toBe(pseudoSkeleton('lea'));
    expect(pseudoSkeleton('hugo')).not.toBe(pseudoSkeleton('hugues'));
  });
  it('claims the skeleton in a stream of its own', () => {
    expect(reservationStream('pseudoSkeleton', 'lеa')).toBe(reservationStream('pseudoSkeleton', 'lea'));
    expect(reservationStream('pseudoSkeleton', 'lea')).not.toBe(reservationStream('pseudo', 'lea'));
    expect(reservationStream('pseudo', 'lеa')).not.toBe(reservationStream('pseudo', 'lea'));
  });
});
