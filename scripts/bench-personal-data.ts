/**
 * Crypto-shredding's cost (not a test): the same comments appended and read back through the bare
 * SqliteEventStore and through PersonalDataEventStore (each comment's text encrypted with its
 * author's key at append, decrypted at read; 977 authors whose keys exist, from keys.sqlite behind
 * the 10-s cache), interleaved rounds in one run, best round of each.
 *
 *   npx tsx scripts/bench-personal-data.ts
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CachedKeyStore,
  PersonalDataEventStore,
  SqliteEventStore,
  SqliteKeyStore,
  childLogger,
  type EventStore,
} from '@evo/infra';
import type { NewEvent } from '@evo/domain';

const log = childLogger('bench-personal-data');
const APPENDS = 10_240;
const APPENDERS = 32;
const ROUNDS = 3;

const comment = (i: number): NewEvent => ({
  id: randomUUID(),
  type: 'CommentPosted',
  data: {
    commentId: i + 1,
    videoId: 1 + (i % 5000),
    videoOwnerId: `u-${i % 13}`,
    authorId: `u-${i % 977}`,
    parentId: null,
    content: `Commentaire n°${i} : très réussi, bravo à l’équipe !`,
  },
  metadata: { userId: `u-${i % 977}`, correlationId: randomUUID(), at: new Date().toISOString() },
});

async function appends(store: EventStore): Promise<number> {
  const per = APPENDS / APPENDERS;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: APPENDERS }, async (_, k) => {
      let expected: number | 'no_stream' = 'no_stream';
      for (let i = 0; i < per; i++)
        expected = (await store.append(`bench-${k}`, [comment(k * per + i)], expected)).nextRevision;
    }),
  );
  return APPENDS / ((performance.now() - start) / 1000);
}

async function replay(store: EventStore): Promise<number> {
  const start = performance.now();
  let n = 0;
  let chars = 0;
  for await (const batch of store.readAll()) {
    for (const e of batch) chars += (e.data as { content: string }).content.length;
    n += batch.length;
  }
  if (n !== APPENDS || chars === 0) throw new Error(`read ${n} events`);
  return n / ((performance.now() - start) / 1000);
}

const dir = mkdtempSync(join(tmpdir(), 'evo-bench-personal-'));
try {
  const best = { bare: { append: 0, read: 0 }, personal: { append: 0, read: 0 }, legacy: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of ['bare', 'personal'] as const) {
      const log = new SqliteEventStore(join(dir, `${kind}-${round}.sqlite`));
      const keys = new CachedKeyStore(new SqliteKeyStore(join(dir, `keys-${round}.sqlite`)));
      // the authors' keys exist already (made at their registration, not at their first comment)
      for (let a = 0; a < 977; a++) await keys.keyFor(`u-${a}`);
      const store = kind === 'bare' ? log : new PersonalDataEventStore(log, keys);
      best[kind].append = Math.max(best[kind].append, await appends(store));
      best[kind].read = Math.max(best[kind].read, await replay(store));
      await log.close();
      await keys.close();
    }
    // the bare log (comments in clear, no keys: a log not migrated) read through the store
    const clearLog = new SqliteEventStore(join(dir, `bare-${round}.sqlite`));
    const noKeys = new CachedKeyStore(new SqliteKeyStore(join(dir, `no-keys-${round}.sqlite`)));
    best.legacy = Math.max(best.legacy, await replay(new PersonalDataEventStore(clearLog, noKeys)));
    await clearLog.close();
    await noKeys.close();
  }
  const row = (what: string, bare: number, personal: number) =>
    `${what.padEnd(44)} ${Math.round(bare).toLocaleString('en-US').padStart(9)} ${Math.round(personal).toLocaleString('en-US').padStart(12)}  ${((personal / bare) * 100).toFixed(0).padStart(4)} %`;
  process.stdout.write(
    [
      `Crypto-shredding on SQLite, ${APPENDS.toLocaleString('en-US')} comments, best of ${ROUNDS} rounds (events/s)`,
      `${'case'.padEnd(44)} ${'bare'.padStart(9)} ${'encrypted'.padStart(12)}  ratio`,
      row(`appends (${APPENDERS} appenders, group commit)`, best.bare.append, best.personal.append),
      row('readAll, comment text read', best.bare.read, best.personal.read),
      row('readAll of a log not migrated (text in clear)', best.bare.read, best.legacy),
      '',
    ].join('\n'),
  );
} catch (err) {
  log.error({ err }, 'bench failed');
  process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
