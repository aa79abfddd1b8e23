import { describe, it, expect } from 'vitest';
import { LoginThrottle } from './login-throttle';

describe('LoginThrottle', () => {
  const t0 = 1_000_000;

  it('lets 5 attempts of one address on one account in, before any outcome is known', () => {
    const throttle = new LoginThrottle();
    const attempts = Array.from({ length: 25 }, () => throttle.begin('a', 'lea', t0));
    expect(attempts.filter(Boolean)).toHaveLength(5);
  });

  it('locks the address+account pair only: the account from elsewhere, and the address on another account, still get in', () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 5; i++) expect(throttle.begin('attaquant', 'lea', t0)).toBeDefined();
    expect(throttle.begin('attaquant', 'lea', t0)).toBeUndefined();
    expect(throttle.begin('chez-lea', 'lea', t0)).toBeDefined();
    expect(throttle.begin('attaquant', 'hugo', t0)).toBeDefined();
  });

  it('counts failures only per address: successes give their place back', () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 500; i++) {
      const attempt = throttle.begin('proxy', `membre-${i % 7}`, t0);
      expect(attempt, `login ${i}`).toBeDefined();
      throttle.succeeded(attempt!, t0);
    }
  });

  it('stops an address after 50 failures over any accounts, until the window ends', () => {
    const throttle = new LoginThrottle();
    for (let i = 0; i < 50; i++) expect(throttle.begin('devineur', `compte-${i}`, t0)).toBeDefined();
    expect(throttle.begin('devineur', 'compte-neuf', t0)).toBeUndefined();
    expect(throttle.begin('autre', 'compte-neuf', t0)).toBeDefined();
    expect(throttle.begin('devineur', 'compte-neuf', t0 + 15 * 60_000)).toBeDefined();
  });

  it('a success clears the pair; an attempt of ours that failed does not count', () => {
    const throttle = new LoginThrottle({ perPair: 2 });
    throttle.begin('a', 'lea', t0);
    const right = throttle.begin('a', 'lea', t0)!;
    expect(throttle.begin('a', 'lea', t0)).toBeUndefined();
    throttle.succeeded(right, t0);
    const broken = throttle.begin('a', 'lea', t0)!;
    throttle.abandoned(broken, t0);
    expect(throttle.begin('a', 'lea', t0)).toBeDefined();
    expect(throttle.begin('a', 'lea', t0)).toBeDefined();
    expect(throttle.begin('a', 'lea', t0)).toBeUndefined();
  });
});
