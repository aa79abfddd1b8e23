import { describe, expect, it } from 'vitest';
import type { Request, Response } from 'express';
import { MemorySessionStore, type SessionData } from '@evo/infra';
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

describe('Sessions: a login', () => {
  /** a browser's request and answer as `start` uses them, holding `sessionId` if it has one */
  const browser = (sessionId?: string) => {
    const headers = new Map<string, string>();
    const req = { secure: false, sessionId } as unknown as Request;
    const res = { setHeader: (name: string, value: string) => headers.set(name, value) } as unknown as Response;
    return { req, res, headers };
  };

  it('opens a new session, then ends the previous one once the login is recorded', async () => {
    const sessions = new Sessions(new MemorySessionStore(), 'un-secret-de-test-assez-long');
    const previous = await sessions.open('u1');
    const { req, res, headers } = browser(previous.id);
    expect(await sessions.start(req, res, 'u2', async () => 'enregistrée')).toBe('enregistrée');
    expect(req.sessionId).not.toBe(previous.id);
    expect(await sessions.isLive(req.sessionId!)).toBe(true);
    expect(await sessions.isLive(previous.id)).toBe(false);
    expect(headers.get('Set-Cookie')).toContain(req.sessionId);
  });

  it('leaves the browser as it was when the login cannot be recorded: its session goes on, no cookie, the new one ended', async () => {
    const stored: string[] = [];
    const store = new (class extends MemorySessionStore {
      override async set(id: string, data: SessionData, ttlSeconds: number) {
        stored.push(id);
        return super.set(id, data, ttlSeconds);
      }
    })();
    const sessions = new Sessions(store, 'un-secret-de-test-assez-long');
    const previous = await sessions.open('u1');
    const { req, res, headers } = browser(previous.id);
    const refused = sessions.start(req, res, 'u2', async () => {
      // the new session is stored before the login is recorded
      expect(stored).toHaveLength(2);
      expect(await sessions.isLive(stored[1])).toBe(true);
      throw new Error('disque plein');
    });
    await expect(refused).rejects.toThrow('disque plein');
    expect(await sessions.isLive(stored[1])).toBe(false);
    expect(await sessions.isLive(previous.id)).toBe(true);
    expect(req.sessionId).toBe(previous.id);
    expect(headers.has('Set-Cookie')).toBe(false);
  });

  it('closes the sockets of a previous session the store cannot end, and the login stands', async () => {
    const store = new (class extends MemorySessionStore {
      override async destroy(): Promise<void> {
        throw new Error('disque plein');
      }
    })();
    const sessions = new Sessions(store, 'un-secret-de-test-assez-long');
    const ended: string[] = [];
    sessions.onEnded((id) => ended.push(id));
    const previous = await sessions.open('u1');
    const { req, res, headers } = browser(previous.id);
    await sessions.start(req, res, 'u2', async () => undefined);
    expect(req.sessionId).not.toBe(previous.id);
    expect(headers.get('Set-Cookie')).toContain(req.sessionId);
    expect(ended).toEqual([previous.id]);
  });
});

describe('Sessions: read-your-writes', () => {
  it('never brings back a session ended while one of its requests was running', async () => {
    const sessions = new Sessions(new MemorySessionStore(), 'un-secret-de-test-assez-long');
    const { id, data } = await sessions.open('u1');
    const req = { sessionId: id, session: data } as unknown as Request;
    await sessions.noteWrite(req, 5n);
    expect(await sessions.isLive(id)).toBe(true);
    // a logout ends it; the request that wrote before it answers after
    await sessions.end(id);
    await sessions.noteWrite(req, 6n);
    expect(await sessions.isLive(id)).toBe(false);
  });
});
