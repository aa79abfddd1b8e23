import { describe, expect, it } from 'vitest';
import { messageAfterSender } from './text';

describe('a notification names its sender once', () => {
  it('drops the leading pseudo the server wrote into the sentence', () => {
    expect(messageAfterSender('hugo a aimé votre vidéo', 'hugo')).toBe('a aimé votre vidéo');
    expect(messageAfterSender("hugo s'est abonné(e) à vous", 'hugo')).toBe("s'est abonné(e) à vous");
  });

  it('keeps a message that does not start with the pseudo, or has no sender', () => {
    expect(messageAfterSender('Votre signalement a été mis à jour.', '')).toBe('Votre signalement a été mis à jour.');
    expect(messageAfterSender("s'est abonné à toi", 'bob')).toBe("s'est abonné à toi");
    // a pseudo that is only the start of another word is not the sender
    expect(messageAfterSender('hugonaute a aimé votre vidéo', 'hugo')).toBe('hugonaute a aimé votre vidéo');
  });
});
