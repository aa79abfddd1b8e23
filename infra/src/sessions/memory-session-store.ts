import type { SessionData, SessionStore } from './port';

/** Sessions in this process's memory, lost on restart: the contract suite's reference and tests' store. */
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
  async update(id: string, data: SessionData, ttlSeconds: number) {
    if ((this.sessions.get(id)?.expiresAt ?? 0) > Date.now()) await this.set(id, data, ttlSeconds);
  }
  async destroy(id: string) {
    this.sessions.delete(id);
  }
  async destroyAllOf(userId: string, keepId?: string) {
    for (const [id, s] of this.sessions) if (s.data.userId === userId && id !== keepId) this.sessions.delete(id);
  }
  async close() {
    this.sessions.clear();
  }
}
