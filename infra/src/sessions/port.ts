/** What the server remembers about a logged-in browser. */
export interface SessionData {
  userId: string;
  createdAt: number;
  /** highest log position this session wrote, for read-your-writes (decimal string) */
  lastPosition?: string;
}

/** Server-side sessions keyed by a random id carried in an httpOnly cookie. */
export interface SessionStore {
  get(id: string): Promise<SessionData | undefined>;
  set(id: string, data: SessionData, ttlSeconds: number): Promise<void>;
  /**
   * As `set`, for a session still there only: a request that ends after its session was ended
   * (a logout, a new login, a new password) never brings it back.
   */
  update(id: string, data: SessionData, ttlSeconds: number): Promise<void>;
  destroy(id: string): Promise<void>;
  /** Ends every session of `userId` but `keepId` (a new password logs the member out elsewhere). */
  destroyAllOf(userId: string, keepId?: string): Promise<void>;
  close(): Promise<void>;
}
