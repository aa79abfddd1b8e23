/**
 * Pushes a change message to every Socket.IO client in a room (`user:<id>`, `admins`, ...).
 * In one process it emits on the Socket.IO server; across processes it goes through Redis.
 */
export interface PushBus {
  publish(room: string, event: string, payload: unknown): Promise<void>;
  /**
   * Every client now in room `members` joins (or leaves) `room` too, on every API server: a member
   * granted (or losing) the administrator role hears (or stops hearing) `admins` without reconnecting.
   */
  joinRoom(members: string, room: string): Promise<void>;
  leaveRoom(members: string, room: string): Promise<void>;
  close(): Promise<void>;
}
