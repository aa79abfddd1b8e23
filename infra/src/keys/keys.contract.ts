import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { KEY_BYTES, MemberKeyDestroyedError, type KeyStore } from './port';

export interface KeyStoreUnderTest {
  store: KeyStore;
  /** another store on the same storage (another process, or a restart) */
  another: () => Promise<KeyStore>;
  cleanup: () => Promise<void>;
}

/** A destroyed key, as `store` sees it: found as destroyed, and refused for good. */
async function expectDestroyed(store: KeyStore, member: string): Promise<void> {
  expect(await store.find(member)).toBe('destroyed');
  await expect(store.keyFor(member)).rejects.toBeInstanceOf(MemberKeyDestroyedError);
}

/** The KeyStore port's contract, run against every adapter. */
export function keyStoreContract(name: string, make: () => Promise<KeyStoreUnderTest>): void {
  describe(`KeyStore contract: ${name}`, () => {
    const opened: KeyStoreUnderTest[] = [];
    const others: KeyStore[] = [];
    const open = async () => {
      const s = await make();
      opened.push(s);
      return s;
    };
    const another = async (s: KeyStoreUnderTest) => {
      const o = await s.another();
      others.push(o);
      return o;
    };
    afterAll(async () => {
      for (const o of others) await o.close();
      for (const s of opened) await s.cleanup();
    });

    it('makes a 256-bit key on first use and answers the same one after, in this store and another', async () => {
      const s = await open();
      const member = randomUUID();
      expect(await s.store.find(member)).toBeUndefined();
      const key = await s.store.keyFor(member);
      expect(key).toBeInstanceOf(Buffer);
      expect(key.length).toBe(KEY_BYTES);
      expect((await s.store.keyFor(member)).equals(key)).toBe(true);
      const found = await s.store.find(member);
      expect(found instanceof Buffer && found.equals(key)).toBe(true);
      const o = await another(s);
      expect((await o.keyFor(member)).equals(key)).toBe(true);
    });

    it('gives each member a key of their own', async () => {
      const s = await open();
      const a = await s.store.keyFor(randomUUID());
      const b = await s.store.keyFor(randomUUID());
      expect(a.equals(b)).toBe(false);
    });

    it('concurrent first uses, in two stores, agree on one key', async () => {
      const s = await open();
      const o = await another(s);
      const member = randomUUID();
      const keys = await Promise.all([s.store.keyFor(member), o.keyFor(member), s.store.keyFor(member)]);
      expect(keys[1]!.equals(keys[0]!)).toBe(true);
      expect(keys[2]!.equals(keys[0]!)).toBe(true);
    });

    it('a destroyed key is gone for good: find answers destroyed, keyFor refuses with MemberKeyDestroyedError, in another store too', async () => {
      const s = await open();
      const member = randomUUID();
      await s.store.keyFor(member);
      await s.store.destroy(member);
      await expectDestroyed(s.store, member);
      await expect(s.store.keyFor(member)).rejects.toMatchObject({ memberId: member });
      await expectDestroyed(await another(s), member);
    });

    it('destroy is idempotent, and leaves a tombstone for a member who had no key', async () => {
      const s = await open();
      const member = randomUUID();
      await s.store.destroy(member);
      await s.store.destroy(member);
      await expectDestroyed(s.store, member);
    });

    it("destroying one member's key leaves the others' keys", async () => {
      const s = await open();
      const [a, b] = [randomUUID(), randomUUID()];
      await s.store.keyFor(a);
      const kb = await s.store.keyFor(b);
      await s.store.destroy(a);
      const found = await s.store.find(b);
      expect(found instanceof Buffer && found.equals(kb)).toBe(true);
    });

    it('keeps one platform secret, the same in another store', async () => {
      const s = await open();
      const secret = await s.store.platformSecret();
      expect(secret.length).toBeGreaterThanOrEqual(KEY_BYTES);
      expect((await s.store.platformSecret()).equals(secret)).toBe(true);
      const o = await another(s);
      expect((await o.platformSecret()).equals(secret)).toBe(true);
    });
  });
}
