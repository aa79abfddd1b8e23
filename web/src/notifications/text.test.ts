import { describe, expect, it } from 'vitest';
import { messageAfterSender } from './text';

describe('a notification names its sender once', () => {
  it('drops the leading pseudo the server wrote into the sentence', () => {
    expect(messageAfterSender('hugo a aimé ta vidéo', 'hugo')).toBe('a aimé ta vidéo');
    expect(messageAfterSender("hugo s'est abonné(e) à toi", 'hugo')).toBe("s'est abonné(e) à toi");
  });

  it('keeps a message that does not start with the pseudo, or has no sender', () => {
    expect(messageAfterSender('Ton signalement a été mis à jour.', '')).toBe('Ton signalement a été mis à jour.');
    expect(messageAfterSender("s'est abonné à toi", 'bob')).toBe("s'est abonné à toi");
    // a pseudo that is only the start of another word is not the sender
    expect(messageAfterSender('hugonaute a aimé ta vidéo', 'hugo')).toBe('hugonaute a aimé ta vidéo');
  });
});
