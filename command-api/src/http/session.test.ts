import { describe, expect, it } from 'vitest';
import { MemorySessionStore } from '@evo/infra';
import { SESSION_COOKIE, Sessions } from './session';

describe('Sessions: signed cookies', () => {
  it('answers a verified cookie again from memory, never a value whose signature differs', async () => {
    const sessions = new Sessions(new MemorySessionStore(), 'un-secret-de-test-assez-long');
    const { id, cookieValue } = await sessions.open('u1');
    const header = (value: string) => `${SESSION_COOKIE}=${value}`;
    for (let i = 0; i < 2; i++) expect((await sessions.fromCookieHeader(header(cookieValue)))?.id).toBe(id);
    const signature = cookieValue.slice(id.length + 1);
    const forged = `${id}.${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    expect(await sessions.fromCookieHeader(header(forged))).toBeUndefined();
    expect(await sessions.fromCookieHeader(header(`${id}.`))).toBeUndefined();
    expect(await sessions.fromCookieHeader(header(id))).toBeUndefined();
    // signed with another secret (another installation): refused, even once this value is known here
    const other = new Sessions(new MemorySessionStore(), 'un-autre-secret-de-test-assez-long');
    expect(await other.fromCookieHeader(header(cookieValue))).toBeUndefined();
    // ended: the signature still verifies, the session is gone
    await sessions.end(id);
    expect(await sessions.fromCookieHeader(header(cookieValue))).toBeUndefined();
  });
});
