import { describe, expect, it } from 'vitest';
import { passwordHasher } from './passwords';

describe('password hashing', () => {
  it('hashes with argon2id at the cost it is told, and checks hashes made at either cost', async () => {
    const standard = passwordHasher();
    const minimal = passwordHasher('minimal');
    const dear = await standard.hash('motdepasse1');
    const cheap = await minimal.hash('motdepasse1');
    expect(dear).toMatch(/^\$argon2id\$v=19\$m=65536,t=3,p=4\$/);
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=1024,t=2,p=1\$/);
    for (const hasher of [standard, minimal]) {
      expect(await hasher.verify(dear, 'motdepasse1')).toBe(true);
      expect(await hasher.verify(cheap, 'motdepasse1')).toBe(true);
      expect(await hasher.verify(cheap, 'motdepasse2')).toBe(false);
      expect(await hasher.verify(undefined, 'motdepasse1')).toBe(false);
      expect(await hasher.verify('pas un hash', 'motdepasse1')).toBe(false);
    }
  });
});
