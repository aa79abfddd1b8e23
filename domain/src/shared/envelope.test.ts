import { describe, expect, it } from 'vitest';
import { positionFromString, positionKey, positionToString } from './envelope';

describe('log positions', () => {
  it('keys are fixed-width decimals that sort like the positions, up to 128 bits (EventStoreDB)', () => {
    const positions = [0n, 1n, 9n, 10n, 12_345n, 2n ** 53n + 1n, 2n ** 64n - 1n, 2n ** 128n - 1n];
    const keys = positions.map(positionKey);
    for (const k of keys) expect(k).toMatch(/^\d{40}$/);
    expect([...keys].reverse().sort()).toEqual(keys);
    expect(keys.map((k) => BigInt(k))).toEqual(positions);
  });

  it('the key of the same position again is the same string (one per event, shared by its writes)', () => {
    expect(positionKey(42n)).toBe(positionKey(42n));
    expect(positionKey(43n)).toBe('0'.repeat(38) + '43');
  });

  it('round-trip through text without losing bits', () => {
    const p = 2n ** 63n + 7n;
    expect(positionFromString(positionToString(p))).toBe(p);
  });
});
