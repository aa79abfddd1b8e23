import { describe, it, expect } from 'vitest';
import { SqliteEventStore } from '../eventstore/sqlite-event-store';
import { nextId } from './sequence';
import { systemContext } from './command-handler';

describe('nextId', () => {
  it('gives distinct consecutive ids to many concurrent callers', async () => {
    const store = new SqliteEventStore(':memory:');
    const ids = await Promise.all(Array.from({ length: 300 }, () => nextId(store, 'video', systemContext())));
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    await store.close();
  });
  it('stays unique across two processes sharing one log', async () => {
    const store = new SqliteEventStore(':memory:');
    // a second writer that does not share this process's queue: a fresh wrapper of the same store
    const other = Object.create(store) as SqliteEventStore;
    const ids = await Promise.all(
      Array.from({ length: 100 }, (_, i) => nextId(i % 2 ? store : other, 'comment', systemContext())),
    );
    expect(new Set(ids).size).toBe(100);
    expect(Math.max(...ids)).toBe(100);
    await store.close();
  });
});
