import { describe, expect, it } from 'vitest';
import { formatDuration, formatSigned, isoFromLocalInput, localInputFromIso } from './format';

describe('admin formatting', () => {
  it('signs amounts with a real minus', () => {
    expect(formatSigned(50)).toBe('+50');
    expect(formatSigned(-20)).toBe('−20');
    expect(formatSigned(0)).toBe('0');
  });
  it('writes durations in French units', () => {
    expect(formatDuration(0.004)).toBe('moins de 0,1 s');
    expect(formatDuration(0.24)).toBe('0,2 s');
    expect(formatDuration(3.1)).toBe('3,1 s');
    expect(formatDuration(42.4)).toBe('42 s');
    expect(formatDuration(125)).toBe('2 min 05 s');
    expect(formatDuration(3725)).toBe('1 h 02 min');
  });
  it('converts the datetime-local value both ways (empty = now = null)', () => {
    expect(isoFromLocalInput('')).toBeNull();
    const iso = isoFromLocalInput('2025-03-12T14:05');
    expect(iso).not.toBeNull();
    expect(localInputFromIso(iso)).toBe('2025-03-12T14:05');
  });
});
