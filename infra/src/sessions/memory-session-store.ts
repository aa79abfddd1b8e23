import type { SessionData, SessionStore } from './port';

/** Sessions of the embedded single process; lost on restart (members log in again). */
export class MemorySessionStore implements SessionStore {
  private readonly sessions = new Map<string, { data: SessionData; expiresAt: number }>();

  async get(id: string) {
    const s = this.sessions.get(id);
    if (!s) return undefined;
    if (s.expiresAt <= Date.now()) {
      this.sessions.delete(id);
      return undefined;
    }
    return { ...s.data };
  }
  async set(id: string, data: SessionData, ttlSeconds: number) {
    this.sessions.set(id, { data: { ...data }, expiresAt: Date.now() + ttlSeconds * 1000 });
  }
  async destroy(id: string) {
    this.sessions.delete(id);
  }
  async close() {
    this.sessions.clear();
  }
}
