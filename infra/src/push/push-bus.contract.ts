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

    it('refuses a payload that is not plain JSON', async () => {
      await expect(fixture.bus.publish('user:1', 'x', { position: 12n })).rejects.toThrow(TypeError);
      await expect(fixture.bus.publish('user:1', 'x', { at: [{ f: () => 1 }] })).rejects.toThrow(/payload\.at\[0\]\.f/);
    });
  });
}
