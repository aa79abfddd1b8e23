import { describe, it, expect } from 'vitest';
import { cleanUserText } from './text';
import { pseudoSkeleton } from '../identity/skeleton';
import { checkCommentContent, COMMENT_MESSAGES } from '../comments/rules';
import { checkMessageText, MESSAGING_MESSAGES } from '../messaging/rules';
import { MESSAGES, RegisterBody, pseudoField, reservationStream } from '../identity/rules';

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
