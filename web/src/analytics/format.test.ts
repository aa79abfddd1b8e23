import { describe, expect, it } from 'vitest';
import { change, shortDay, signed } from './format';

describe('analytics labels', () => {
  it('say the change against the previous period in French', () => {
    expect(change(15, 10)).toBe('+5 (+50 %)');
    expect(change(3, 4)).toBe('−1 (−25 %)');
    // no percentage of nothing
    expect(change(3, 0)).toBe('+3');
    expect(change(-1, 2)).toBe('−3 (−150 %)');
    expect(change(7, 7)).toBe('stable');
    expect(signed(0)).toBe('0');
  });

  it('write days the French way, whatever the browser time zone', () => {
    expect(shortDay('2026-01-12')).toMatch(/^12 janv\.?$/);
    expect(shortDay('2026-08-01')).toMatch(/^1 août$/);
  });
});
