/**
 * Pushes a change message to every Socket.IO client in a room (`user:<id>`, `admins`, ...).
 * In one process it emits on the Socket.IO server; across processes it goes through Redis.
 */
export interface PushBus {
  publish(room: string, event: string, payload: unknown): Promise<void>;
  close(): Promise<void>;
}
