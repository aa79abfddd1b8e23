import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { DomainEvent, RecordedAppEvent } from '@evo/domain';
import { SqliteEventStore, SqliteReadStore, toNewEvents, type EventStore } from '@evo/infra';
import { allProjectors } from './registry';
import type { Projector } from './runtime/projector';
import { ProjectionRunner, CATCHING_UP } from './runtime/runner';
import { ForeignWriteError, ownCollectionsOnly } from './runtime/own-collections';
import { dumpReadModels } from './testing/read-model-dump';
import { writeScriptedHistory } from './testing/scripted-history';
import { closedAfterEach } from './testing/test-lifecycle';
import { minuteApartContexts } from './testing/member-commands';
import { USERS } from './identity/users-projector';

const open = closedAfterEach<{ close(): Promise<void> }>();

/** The registry's order, reversed, and shuffled (fixed seeds: a failure names its order). */
const ORDERS: Array<[string, readonly Projector[]]> = [
  ['the registry', allProjectors],
  ['reversed', [...allProjectors].reverse()],
  ...[7, 33, 2026].map((seed): [string, readonly Projector[]] => [
    `shuffled (seed ${seed})`,
    fc.sample(
      fc.shuffledSubarray([...allProjectors], { minLength: allProjectors.length, maxLength: allProjectors.length }),
      { numRuns: 1, seed },
    )[0],
  ]),
];

/**
 * The scripted history, then what changes documents others copied: a member updates their
 * profile, another deletes their account (their erasure follows).
 */
async function history(): Promise<EventStore> {
  const events = new SqliteEventStore(':memory:');
  open.push(events);
  const { userIds } = await writeScriptedHistory(events, 5);
  const ctx = minuteApartContexts(Date.UTC(2026, 6, 1, 8));
  const append = (stream: string, e: DomainEvent, actor: string) =>
    events.append(stream, toNewEvents([e], stream, ctx(actor)), 'any');
  const [painter, leaver] = [userIds[1], userIds[3]];
  await append(
    `user-${painter}`,
    { type: 'ProfileUpdated', data: { userId: painter, bio: 'Nouvelle bio', profilePicture: 'nouvelle.png' } },
    painter,
  );
  await append(`user-${leaver}`, { type: 'AccountDeleted', data: { userId: leaver } }, leaver);
  await append(`user-${leaver}`, { type: 'MemberErased', data: { userId: leaver, files: 0 } }, leaver);
  return events;
}

async function logOf(events: EventStore): Promise<RecordedAppEvent[]> {
  const out: RecordedAppEvent[] = [];
  for await (const batch of events.readAll(undefined, 200)) out.push(...(batch as RecordedAppEvent[]));
  return out;
}

/** The log through the runner, each event to its projectors in `order`. */
async function eventByEvent(events: EventStore, order: readonly Projector[]) {
  const read = SqliteReadStore.temporary();
  open.push(read);
  await new ProjectionRunner({ events, read, projectors: order, batchSize: 50 }).load();
  return dumpReadModels(read);
}

/** Each projector over the whole log, then the next: as if each ran in a process of its own. */
async function projectorByProjector(log: readonly RecordedAppEvent[], order: readonly Projector[]) {
  const read = SqliteReadStore.temporary();
  open.push(read);
  for (const p of order) {
    const types = new Set<string>(p.eventTypes);
    const store = ownCollectionsOnly(read, p);
    for (const e of log) if (types.has(e.type)) await p.project(e, store, CATCHING_UP);
  }
  return dumpReadModels(read);
}

type Dump = Record<string, unknown[]>;

/** The same documents in the same collections; a difference names its collections first. */
function expectSame(actual: Dump, reference: Dump, order: string) {
  const names = [...new Set([...Object.keys(actual), ...Object.keys(reference)])];
  const differing = names.filter((n) => JSON.stringify(actual[n]) !== JSON.stringify(reference[n]));
  expect(differing, `${order}: collections that differ`).toEqual([]);
  for (const n of names) expect(actual[n], `${order}: ${n}`).toEqual(reference[n]);
}

describe('projectors in any order', () => {
  it('own their collections: a write to another projector’s collection is refused', async () => {
    const read = SqliteReadStore.temporary();
    open.push(read);
    const store = ownCollectionsOnly(read, { name: 'intrus', collections: ['mine'] });
    await store.collection('mine').insertOne({ _id: 1 });
    await expect(store.collection(USERS).updateOne({ _id: 'x' }, { $set: { a: 1 } })).rejects.toThrow(
      ForeignWriteError,
    );
    await expect(store.collection(USERS).deleteMany({})).rejects.toThrow(/« intrus » écrit dans « users »/);
    expect(await store.collection(USERS).countDocuments()).toBe(0);
    // each collection has one projector
    const owners = allProjectors.flatMap((p) => p.collections);
    expect(owners.length).toBe(new Set(owners).size);
  });

  it('give the same read models, document by document, event by event in any order', async () => {
    const events = await history();
    const reference = await eventByEvent(events, allProjectors);
    expect(Object.keys(reference)).toEqual(
      expect.arrayContaining(['video_counters', 'creator_counters', 'comment_counts', 'follow_counts']),
    );
    for (const [name, order] of ORDERS.slice(1)) expectSame(await eventByEvent(events, order), reference, name);
  });

  it('give the same read models, document by document, one projector after another in any order', async () => {
    const events = await history();
    const reference = await eventByEvent(events, allProjectors);
    const log = await logOf(events);
    // every collection is compared, those that show other members and videos included: each
    // projector keeps its own copy of what it shows of them (runtime/own-copies.ts)
    expect(Object.keys(reference)).toEqual(
      expect.arrayContaining([
        'users',
        'videos',
        'comments',
        'notifications',
        'mailboxes',
        'conversations',
        'gifts_received',
        'admin_audit',
        'moderation_decisions',
        'reports',
        'favorites',
        'video_counters',
        'follow_counts',
        'coin_wallets',
        'stats',
      ]),
    );
    for (const [name, order] of ORDERS) expectSame(await projectorByProjector(log, order), reference, name);
  });
});
