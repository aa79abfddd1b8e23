import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EventStoreDBClient, NO_STREAM, jsonEvent } from '@eventstore/db-client';
import type { StartedTestContainer } from 'testcontainers';
import { collectAll, eventStoreContract, newEvent, sleep } from './event-store.contract';
import { EventStoreDbEventStore, decodePosition, encodePosition } from './eventstoredb-event-store';
import { skippedSuite } from '../testing/skipped-suite';

describe('EventStoreDB position encoding', () => {
  it('round-trips commit and prepare and keeps their order', () => {
    const part = fc.bigInt({ min: 0n, max: (1n << 63n) - 1n });
    fc.assert(
      fc.property(part, part, part, part, (c1, p1, c2, p2) => {
        expect(decodePosition(encodePosition({ commit: c1, prepare: p1 }))).toEqual({ commit: c1, prepare: p1 });
        const a = encodePosition({ commit: c1, prepare: p1 });
        const b = encodePosition({ commit: c2, prepare: p2 });
        const lexicographic = c1 < c2 || (c1 === c2 && p1 < p2);
        expect(a < b).toBe(lexicographic);
      }),
    );
  });
});

/** Docker is usable when testcontainers finds a runtime quickly. */
async function dockerAvailable(): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    const timeout = new Promise<false>((r) => (timer = setTimeout(() => r(false), 5000)));
    return await Promise.race([getContainerRuntimeClient().then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

const configuredUrl = process.env.EVENTSTORE_URL;
const useDocker = !configuredUrl && (await dockerAvailable());

if (configuredUrl || useDocker) {
  let container: StartedTestContainer | undefined;
  let connection: Promise<string> | undefined;
  const connectionString = (): Promise<string> =>
    (connection ??= (async () => {
      if (configuredUrl) return configuredUrl;
      const { GenericContainer, Wait } = await import('testcontainers');
      container = await new GenericContainer('eventstore/eventstore:24.10')
        .withEnvironment({
          EVENTSTORE_INSECURE: 'true',
          EVENTSTORE_RUN_PROJECTIONS: 'None',
          EVENTSTORE_MEM_DB: 'true',
        })
        .withExposedPorts(2113)
        .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCodeMatching((c) => c >= 200 && c < 300))
        .withStartupTimeout(90_000)
        .start();
      return `esdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`;
    })());
  afterAll(async () => {
    await container?.stop();
  });

  eventStoreContract('EventStoreDB', async () => {
    const store = new EventStoreDbEventStore(await connectionString());
    return { store, cleanup: () => store.close() };
  });

  describe('EventStoreDbEventStore specifics', () => {
    it('relies on EventStoreDB answering success to a re-append of the same event id', async () => {
      const client = EventStoreDBClient.connectionString(await connectionString());
      try {
        const streamId = `raw-${randomUUID()}`;
        const event = jsonEvent({ id: randomUUID(), type: 'Probe', data: { n: 1 } });
        const first = await client.appendToStream(streamId, event, { expectedRevision: NO_STREAM });
        const again = await client.appendToStream(streamId, event, { expectedRevision: NO_STREAM });
        expect(first.success).toBe(true);
        expect(again.success).toBe(true);
        let count = 0;
        for await (const _ of client.readStream(streamId)) count++;
        expect(count).toBe(1);
      } finally {
        await client.dispose();
      }
    });

    it('leaves system events out of readAll and lastPosition', async () => {
      const store = new EventStoreDbEventStore(await connectionString());
      try {
        const r = await store.append(`sys-${randomUUID()}`, [newEvent()], 'no_stream');
        // writing stream metadata records a '$metadata' system event after ours
        const client = EventStoreDBClient.connectionString(await connectionString());
        await client.setStreamMetadata(`sys-${randomUUID()}`, { maxCount: 10 });
        await client.dispose();
        await sleep(50);
        expect(await store.lastPosition()).toBe(r.position);
        const all = await collectAll(store, undefined, 500);
        expect(all.some((e) => e.type.startsWith('$'))).toBe(false);
      } finally {
        await store.close();
      }
    });
  });
} else {
  const reason =
    'EventStoreDB server tests skipped: set EVENTSTORE_URL=esdb://host:2113?tls=false or run a Docker engine ' +
    '(the adapter logic still runs against a fake client in eventstoredb-event-store.fake.test.ts)';
  skippedSuite(reason, `EventStore contract: EventStoreDB (${reason})`, 'runs the contract against EventStoreDB');
}
