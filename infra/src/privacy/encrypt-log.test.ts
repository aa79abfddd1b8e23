import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ERASED_TEXT,
  erasedValue,
  eventSchemas,
  reservationStream,
  type DomainEvent,
  type RecordedEvent,
} from '@evo/domain';
import { toNewEvents, systemContext } from '../commands/command-handler';
import type { EventStore } from '../eventstore/port';
import { SqliteEventStore } from '../eventstore/sqlite-event-store';
import { PostgresEventStore } from '../eventstore/postgres-event-store';
import { eventProblem } from '../eventstore/verify-log';
import { SqliteKeyStore } from '../keys/sqlite-key-store';
import { PostgresKeyStore } from '../keys/postgres-key-store';
import { CachedKeyStore } from '../keys/cached-key-store';
import type { KeyStore } from '../keys/port';
import { createTestDatabase, postgresAvailability, type TestDatabase } from '../testing/postgres';
import { checkEncrypted, encryptLog, type EncryptLogProgress } from './encrypt-log';
import { PersonalDataEventStore } from './personal-data-event-store';
import { PostgresRawLog, SqliteRawLog, type RawLog } from './raw-logs';

const lea = randomUUID();
const bob = randomUUID();
const LEA_EMAIL = 'lea.migration@example.com';
const SECRETS = [
  'lea.migration',
  'leamig',
  'Bio de Léa',
  'Commentaire privé de Léa',
  'Message secret de Léa',
  'bobmig',
  'Bob dit',
];

/** A log as EVO wrote it before crypto-shredding: clear fields, uniqueness streams by their clear names. */
async function writeLegacyLog(log: EventStore): Promise<number> {
  const put = async (stream: string, ...events: DomainEvent[]) =>
    log.append(stream, toNewEvents(events, stream, systemContext()), 'any');
  const member = async (userId: string, pseudo: string, email: string, bio: string) => {
    for (const [kind, value] of [
      ['pseudo', pseudo],
      ['pseudoSkeleton', pseudo],
      ['email', email],
    ] as const)
      await put(reservationStream(kind, value), {
        type: 'ValueReserved',
        data: { kind, value, userId, reservedAt: '2026-01-01T00:00:00.000Z' },
      });
    await put(`user-${userId}`, {
      type: 'UserRegistered',
      data: { userId, email, pseudo, passwordHash: '$argon2id$v=19$hash', bio, profilePicture: 'default.png' },
    });
  };
  await member(lea, 'leamig', LEA_EMAIL, 'Bio de Léa');
  await member(bob, 'bobmig', 'bob.migration@example.com', 'Bob dit bonjour');
  await put('comment-1', {
    type: 'CommentPosted',
    data: {
      commentId: 1,
      videoId: 1,
      videoOwnerId: bob,
      authorId: lea,
      parentId: null,
      content: 'Commentaire privé de Léa',
    },
  });
  await put(`conversation-${[lea, bob].sort().join('-')}`, {
    type: 'MessageSent',
    data: { messageId: 1, senderId: lea, receiverId: bob, content: 'Message secret de Léa' },
  });
  await put('conversation-b', {
    type: 'MessageSent',
    data: { messageId: 2, senderId: bob, receiverId: lea, content: 'Bob dit salut' },
  });
  await put(`following-${lea}`, { type: 'UserFollowed', data: { followerId: lea, followeeId: bob } });
  return 12;
}

async function readAll(store: EventStore): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  for await (const batch of store.readAll()) out.push(...batch);
  return out;
}

/** the migration's contract, on each kind of log */
function migrationSuite(
  name: string,
  make: () => Promise<{
    log: EventStore;
    raw: () => RawLog;
    keys: KeyStore;
    bytes?: () => string;
    cleanup: () => Promise<void>;
  }>,
): void {
  describe(`npm run data:encrypt's migration: ${name}`, () => {
    it('encrypts every personal field in place, renames the uniqueness streams, erases a destroyed member, verifies, and leaves nothing in clear', async () => {
      const t = await make();
      try {
        const written = await writeLegacyLog(t.log);
        const before = await readAll(t.log);
        // Bob was deleted before the migration (his key destroyed on a log still in clear)
        await t.keys.destroy(bob);
        const phases = new Set<string>();
        const raw = t.raw();
        const report = await encryptLog({
          log: raw,
          keys: t.keys,
          batchSize: 3,
          onProgress: (p: EncryptLogProgress) => void phases.add(p.phase),
        });
        await raw.close();
        expect(report).toMatchObject({ events: written, encrypted: 6, erased: 5, renamed: 6, problems: [] });
        expect([...phases]).toEqual(['chiffrement', 'flux', 'vérification', 'compactage']);
        if (t.bytes) for (const secret of SECRETS) expect(t.bytes(), secret).not.toContain(secret);

        // as the processes read it: Léa's data as before, Bob's erased, every event valid
        const store = new PersonalDataEventStore(t.log, t.keys);
        const after = await readAll(store);
        expect(after.map((e) => e.id)).toEqual(before.map((e) => e.id));
        for (const e of after) expect(eventProblem(e, eventSchemas), e.type).toBeUndefined();
        const leaRegistered = after.find(
          (e) => e.type === 'UserRegistered' && (e.data as { userId: string }).userId === lea,
        );
        expect(leaRegistered!.data).toEqual(before.find((e) => e.id === leaRegistered!.id)!.data);
        const bobRegistered = after.find(
          (e) => e.type === 'UserRegistered' && (e.data as { userId: string }).userId === bob,
        );
        expect(bobRegistered!.data).toMatchObject({
          email: erasedValue('email', bob),
          pseudo: erasedValue('pseudo', bob),
        });
        expect(after.find((e) => (e.data as { messageId?: number }).messageId === 2)!.data).toMatchObject({
          content: ERASED_TEXT,
        });
        expect(after.find((e) => e.type === 'CommentPosted')!.data).toMatchObject({
          content: 'Commentaire privé de Léa',
        });
        // the claims are found under the names the domain gives, and stored hashed
        const [claim] = await store.readStream(reservationStream('email', LEA_EMAIL));
        expect(claim).toMatchObject({ data: { userId: lea, value: LEA_EMAIL } });
        expect(after.filter((e) => e.type === 'ValueReserved').every((e) => e.streamId.includes('~'))).toBe(true);

        // a second run finds everything done
        const again = t.raw();
        expect(await encryptLog({ log: again, keys: t.keys })).toMatchObject({
          encrypted: 0,
          erased: 0,
          renamed: 0,
          problems: [],
        });
        await again.close();
      } finally {
        await t.cleanup();
      }
    });

    it('the check names what is left in clear', async () => {
      const t = await make();
      try {
        await writeLegacyLog(t.log);
        const raw = t.raw();
        await t.keys.keyFor(lea);
        await t.keys.keyFor(bob);
        const problems = await checkEncrypted(raw, t.keys);
        await raw.close();
        expect(
          problems.some((p) => p.includes('UserRegistered') && p.includes("le champ email n'est pas chiffré")),
        ).toBe(true);
        expect(problems.some((p) => p.includes('porte encore sa valeur en clair'))).toBe(true);
        expect(problems.join(' ')).not.toContain('leamig');
      } finally {
        await t.cleanup();
      }
    });
  });
}

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

migrationSuite('sqlite', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'evo-encrypt-'));
  dirs.push(dir);
  const file = path.join(dir, 'events.sqlite');
  const log = new SqliteEventStore(file);
  const keys = new CachedKeyStore(new SqliteKeyStore(path.join(dir, 'keys.sqlite')));
  const bytes = () =>
    ['', '-wal']
      .map((s) => {
        try {
          return readFileSync(`${file}${s}`).toString('latin1');
        } catch {
          return '';
        }
      })
      .join('');
  return {
    log,
    raw: () => new SqliteRawLog(file),
    keys,
    bytes,
    cleanup: async () => {
      await log.close();
      await keys.close();
    },
  };
});

const pg = await postgresAvailability();
if (!pg.ok) console.warn(`[skip] data:encrypt on PostgreSQL: ${pg.reason}`);
describe.skipIf(!pg.ok)('on PostgreSQL', () => {
  const dbs: TestDatabase[] = [];
  beforeAll(() => undefined);
  afterAll(async () => {
    for (const db of dbs) await db.drop();
  });
  migrationSuite('postgresql', async () => {
    const db = await createTestDatabase('encrypt');
    dbs.push(db);
    const log = new PostgresEventStore(db.url);
    await log.ready();
    const keys = new CachedKeyStore(new PostgresKeyStore(db.url));
    return {
      log,
      raw: () => new PostgresRawLog(db.url),
      keys,
      cleanup: async () => {
        await log.close();
        await keys.close();
      },
    };
  });
});
