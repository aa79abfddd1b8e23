import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { followDecider, followingStream, fold, type FollowEvent } from '@evo/domain';
import { SqliteEventStore } from '../eventstore/sqlite-event-store';
import { handleCommand, loadState, systemContext } from './command-handler';
import { FoldingEventStore } from './folding-event-store';

const dirs: string[] = [];
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** two connections to one SQLite log: the folding store's, and another writer's (another process) */
function twoWriters(maxStreams?: number) {
  const dir = mkdtempSync(join(tmpdir(), 'evo-folds-'));
  dirs.push(dir);
  const file = join(dir, 'events.sqlite');
  const mine = new SqliteEventStore(file);
  const other = new SqliteEventStore(file);
  open.push(mine, other);
  return { folding: new FoldingEventStore(mine, maxStreams), other };
}

const member = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

describe('FoldingEventStore', () => {
  it('folds exactly what a full read folds, whoever appended, streams dropped from its memory included', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            through: fc.constantFrom('folding', 'other'),
            follower: fc.nat(3),
            followee: fc.integer({ min: 4, max: 8 }),
            unfollow: fc.boolean(),
          }),
          { minLength: 1, maxLength: 40 },
        ),
        async (steps) => {
          // room for two streams of four: loads evict and fold again from the start
          const { folding, other } = twoWriters(2);
          for (const s of steps) {
            const stream = followingStream(member(s.follower));
            const command = {
              type: s.unfollow ? ('Unfollow' as const) : ('Follow' as const),
              followerId: member(s.follower),
              followeeId: member(s.followee),
              now: new Date(),
            };
            await handleCommand(
              s.through === 'folding' ? folding : other,
              stream,
              followDecider,
              command,
              systemContext(),
            );
            for (let f = 0; f <= 3; f++) {
              const id = followingStream(member(f));
              const full = fold(followDecider, (await other.readStream(id)) as unknown as FollowEvent[]);
              const loaded = await loadState(folding, id, followDecider);
              expect(loaded.state).toEqual(full);
              expect(loaded.revision).toBe((await other.readStream(id)).length - 1);
            }
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('decides on the stream as it is now: a rule broken by another writer since the last load is refused', async () => {
    const { folding, other } = twoWriters();
    const stream = followingStream(member(1));
    const follow = { type: 'Follow' as const, followerId: member(1), followeeId: member(2), now: new Date() };
    expect((await handleCommand(folding, stream, followDecider, follow, systemContext())).events).toHaveLength(1);
    const unfollow = { ...follow, type: 'Unfollow' as const };
    expect((await handleCommand(other, stream, followDecider, unfollow, systemContext())).events).toHaveLength(1);
    // the kept fold still says "following": an unfollow must see the other writer's and do nothing
    expect((await handleCommand(folding, stream, followDecider, unfollow, systemContext())).events).toEqual([]);
    expect((await loadState(folding, stream, followDecider)).state.following.has(member(2))).toBe(false);
  });
});
