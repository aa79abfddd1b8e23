import type { Socket as ClientSocket } from 'socket.io-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PushBus } from './port';

export type { ClientSocket };

export interface PushBusFixture {
  bus: PushBus;
  /** a client connected to a real Socket.IO server and already in `room` when this resolves */
  connectClient(room: string): Promise<ClientSocket>;
  /** disconnects the clients, closes the servers, the bus and their Redis connections */
  cleanup(): Promise<void>;
}

const RECEIVE_TIMEOUT_MS = 5000;

/** Resolves with the payloads of the next `count` `event`s on `socket`. */
function receive(socket: ClientSocket, event: string, count = 1): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const payloads: unknown[] = [];
    const timer = setTimeout(() => {
      socket.off(event, onEvent);
      reject(new Error(`received ${payloads.length} of ${count} '${event}' events before the timeout`));
    }, RECEIVE_TIMEOUT_MS);
    function onEvent(payload: unknown): void {
      payloads.push(payload);
      if (payloads.length < count) return;
      clearTimeout(timer);
      socket.off(event, onEvent);
      resolve(payloads);
    }
    socket.on(event, onEvent);
  });
}

/** Every event the socket receives, in arrival order. */
function record(socket: ClientSocket): Array<{ event: string; payload: unknown }> {
  const seen: Array<{ event: string; payload: unknown }> = [];
  socket.onAny((event: string, payload: unknown) => seen.push({ event, payload }));
  return seen;
}

/** Repeats `round` (up to the timeout) until it answers true. */
async function until(round: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + RECEIVE_TIMEOUT_MS;
  while (!(await round())) {
    if (Date.now() > deadline) throw new Error('condition not reached before the timeout');
  }
}

/** Calls `send` until `socket` hears `event` (a round every 100 ms), and answers its payload. */
async function heardAfter(socket: ClientSocket, event: string, send: () => Promise<void>): Promise<unknown> {
  let payload: unknown;
  const heard = new Promise<void>((resolve) => {
    socket.once(event, (p: unknown) => {
      payload = p;
      resolve();
    });
  });
  let done = false;
  void heard.then(() => (done = true));
  await until(async () => {
    await send();
    await Promise.race([heard, new Promise((r) => setTimeout(r, 100))]);
    return done;
  });
  return payload;
}

/**
 * Every PushBus adapter must pass this suite. `make` starts real Socket.IO server(s) on ephemeral
 * ports of 127.0.0.1 whose connection handler puts the client in the room of its handshake.
 */
export function pushBusContract(name: string, make: () => Promise<PushBusFixture>): void {
  describe(`PushBus contract: ${name}`, () => {
    let fixture: PushBusFixture;

    beforeEach(async () => {
      fixture = await make();
    });

    afterEach(async () => {
      await fixture.cleanup();
    });

    it('a client in the room receives the event with its payload intact', async () => {
      const client = await fixture.connectClient('user:1');
      const payload = {
        kind: 'notification',
        // positions are published as strings: this one does not fit a double
        position: '18446744073709551615',
        count: 3,
        ratio: 0.25,
        negative: -7,
        read: false,
        sender: null,
        text: 'Zoé a aimé votre vidéo « Été 2024 » ✨',
        tags: ['été', 'plage', ''],
        nested: { gift: { id: 12, coins: 500 }, empty: {}, list: [] },
      };
      const received = receive(client, 'notification:new');
      await fixture.bus.publish('user:1', 'notification:new', payload);

      expect(await received).toEqual([payload]);
    });

    it('a client in another room does not receive it', async () => {
      const inA = await fixture.connectClient('user:A');
      const inB = await fixture.connectClient('user:B');
      const seenByB = record(inB);
      const receivedByA = receive(inA, 'x');
      const markerForB = receive(inB, 'marker');

      await fixture.bus.publish('user:A', 'x', { n: 1 });
      // events reach a client in publish order, so once B has the later marker it would have had 'x'
      await fixture.bus.publish('user:B', 'marker', { n: 2 });

      expect(await receivedByA).toEqual([{ n: 1 }]);
      expect(await markerForB).toEqual([{ n: 2 }]);
      expect(seenByB).toEqual([{ event: 'marker', payload: { n: 2 } }]);
    });

    it('every client in the room receives it', async () => {
      const clients = await Promise.all([1, 2, 3].map(() => fixture.connectClient('user:42')));
      const received = clients.map((client) => receive(client, 'balance:changed'));

      await fixture.bus.publish('user:42', 'balance:changed', { balance: 1200 });

      expect(await Promise.all(received)).toEqual([[{ balance: 1200 }], [{ balance: 1200 }], [{ balance: 1200 }]]);
    });

    it('events arrive in publish order', async () => {
      const client = await fixture.connectClient('user:7');
      const received = receive(client, 'message:new', 100);
      const indexes = Array.from({ length: 100 }, (_, i) => i);

      // published back to back without waiting for each other, as a projector catching up would
      await Promise.all(indexes.map((i) => fixture.bus.publish('user:7', 'message:new', { i })));

      expect(await received).toEqual(indexes.map((i) => ({ i })));
    });

    it("moves a room's clients into another room and out of it", async () => {
      const member = await fixture.connectClient('user:9');
      const other = await fixture.connectClient('user:10');
      const seenByOther = record(other);

      // before: not in 'admins'
      const marker = receive(member, 'marker');
      await fixture.bus.publish('admins', 'report:new', { id: 0 });
      await fixture.bus.publish('user:9', 'marker', { n: 0 });
      await marker;

      await fixture.bus.joinRoom('user:9', 'admins');
      // across servers the join may travel apart from later publishes: publish until heard
      expect(
        await heardAfter(member, 'report:new', () => fixture.bus.publish('admins', 'report:new', { id: 1 })),
      ).toEqual({ id: 1 });

      await fixture.bus.leaveRoom('user:9', 'admins');
      // once a round is not heard (the marker published after it is), the member is out
      await until(async () => {
        const seen = record(member);
        const next = receive(member, 'marker');
        await fixture.bus.publish('admins', 'report:new', { id: 2 });
        await fixture.bus.publish('user:9', 'marker', { n: 2 });
        await next;
        return !seen.some((e) => e.event === 'report:new');
      });
      // ...and stays out
      const seen = record(member);
      const last = receive(member, 'marker');
      await fixture.bus.publish('admins', 'report:new', { id: 3 });
      await fixture.bus.publish('user:9', 'marker', { n: 3 });
      await last;
      expect(seen.filter((e) => e.event === 'report:new')).toEqual([]);
      // the other member was never moved
      expect(seenByOther.filter((e) => e.event === 'report:new')).toEqual([]);
    });

    it('refuses a payload that is not plain JSON', async () => {
      await expect(fixture.bus.publish('user:1', 'x', { position: 12n })).rejects.toThrow(TypeError);
      await expect(fixture.bus.publish('user:1', 'x', { at: [{ f: () => 1 }] })).rejects.toThrow(/payload\.at\[0\]\.f/);
    });
  });
}
