import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import {
  ERASED_TEXT,
  eventSchemas,
  reservationStream,
  erasedValue,
  type DomainEvent,
  type NewEvent,
  type RecordedEvent,
} from '@evo/domain';
import { toNewEvents, systemContext } from '../commands/command-handler';
import { SqliteEventStore } from '../eventstore/sqlite-event-store';
import { eventProblem } from '../eventstore/verify-log';
import { eventStoreContract, waitFor } from '../eventstore/event-store.contract';
import { SqliteKeyStore } from '../keys/sqlite-key-store';
import { CachedKeyStore } from '../keys/cached-key-store';
import { MemberKeyDestroyedError } from '../keys/port';
import { WrongExpectedRevisionError } from '../eventstore/port';
import { MissingMemberKeyError, PersonalDataEventStore } from './personal-data-event-store';
import { ENCRYPTED_PREFIX } from './field-cipher';
import { sqliteBytesOnDisk } from '../testing/sqlite-on-disk';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function open(): { store: PersonalDataEventStore; log: SqliteEventStore; keys: CachedKeyStore; file: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'evo-personal-'));
  dirs.push(dir);
  const file = path.join(dir, 'events.sqlite');
  const log = new SqliteEventStore(file);
  const keys = new CachedKeyStore(new SqliteKeyStore(path.join(dir, 'keys.sqlite')));
  return { store: new PersonalDataEventStore(log, keys), log, keys, file };
}

const events = (stream: string, ...es: DomainEvent[]): NewEvent[] => toNewEvents(es, stream, systemContext());

const lea = randomUUID();
const bob = randomUUID();
const registered = (userId: string, pseudo: string): DomainEvent => ({
  type: 'UserRegistered',
  data: {
    userId,
    email: `${pseudo}.secret@example.com`,
    pseudo,
    passwordHash: '$argon2id$v=19$m=65536,t=3,p=4$c2VjcmV0aGFzaA',
    bio: `La bio de ${pseudo}`,
    profilePicture: `/uploads/avatars/${pseudo}-photo.png`,
  },
});
const comment = (authorId: string, content: string): DomainEvent => ({
  type: 'CommentPosted',
  data: { commentId: 7, videoId: 3, videoOwnerId: bob, authorId, parentId: null, content },
});
const message = (senderId: string, receiverId: string, content: string): DomainEvent => ({
  type: 'MessageSent',
  data: { messageId: 9, senderId, receiverId, content },
});

/** the log file and its WAL, as bytes on disk */
const onDisk = (file: string) => sqliteBytesOnDisk(file).toString('latin1');

async function readAllOf(store: PersonalDataEventStore): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  for await (const batch of store.readAll(undefined, 2)) out.push(...batch);
  return out;
}

eventStoreContract('personal data over sqlite', async () => {
  const { store, keys } = open();
  return {
    store,
    cleanup: async () => {
      await store.close();
      await keys.close();
    },
  };
});

describe('PersonalDataEventStore', () => {
  it('stores the personal fields encrypted: the file holds no email, pseudo, bio, picture, comment or message text', async () => {
    const { store, log, keys, file } = open();
    await store.append(`user-${lea}`, events(`user-${lea}`, registered(lea, 'leazzz')), 'no_stream');
    await store.append(`comment-7`, events('comment-7', comment(lea, 'Un commentaire très personnel')), 'no_stream');
    await store.append(`conversation-x`, events('conversation-x', message(lea, bob, 'Mon secret à Bob')), 'no_stream');
    const bytes = onDisk(file);
    for (const clear of [
      'leazzz',
      'secret@example.com',
      'La bio de',
      'photo.png',
      'très personnel',
      'Mon secret',
      'argon2id',
    ])
      expect(bytes, clear).not.toContain(clear);
    // the ids and the rest of the event stay in clear
    expect(bytes).toContain(lea);
    const [raw] = await log.readStream(`user-${lea}`);
    const data = raw!.data as Record<string, string>;
    for (const f of ['email', 'pseudo', 'passwordHash', 'bio', 'profilePicture']) expect(data[f]).toMatch(/^enc:v1:/);
    expect(data.userId).toBe(lea);
    await store.close();
    await keys.close();
  });

  it('reads them decrypted on every path: readStream, readAll and subscribeToAll, each event valid against its schema', async () => {
    const { store, keys } = open();
    const appended = events(`user-${lea}`, registered(lea, 'lea'));
    await store.append(`user-${lea}`, appended, 'no_stream');
    await store.append('comment-7', events('comment-7', comment(lea, 'Bravo !')), 'no_stream');
    const [user] = await store.readStream(`user-${lea}`);
    expect(user!.data).toEqual(appended[0]!.data);
    const all = await readAllOf(store);
    expect(all.map((e) => (e.data as { content?: string }).content ?? (e.data as { pseudo: string }).pseudo)).toEqual([
      'lea',
      'Bravo !',
    ]);
    const seen: RecordedEvent[] = [];
    const sub = store.subscribeToAll(async (e) => void seen.push(e));
    await waitFor(() => seen.length === 2);
    await sub.stop();
    expect(seen.map((e) => e.data)).toEqual(all.map((e) => e.data));
    for (const e of all) expect(eventProblem(e, eventSchemas)).toBeUndefined();
    await store.close();
    await keys.close();
  });

  it("once a member's key is destroyed, their personal fields read as erased values, the rest of the events whole and valid; others' stay readable", async () => {
    const { store, keys } = open();
    await store.append(`user-${lea}`, events(`user-${lea}`, registered(lea, 'lea')), 'no_stream');
    await store.append(`user-${bob}`, events(`user-${bob}`, registered(bob, 'bob')), 'no_stream');
    await store.append('comment-7', events('comment-7', comment(lea, 'Bravo !')), 'no_stream');
    await store.append('conversation-x', events('conversation-x', message(bob, lea, 'Salut Lea')), 'no_stream');
    await keys.destroy(lea);
    const all = await readAllOf(store);
    const [user, other, posted, sent] = all.map((e) => e.data as Record<string, unknown>);
    expect(user).toEqual({
      userId: lea,
      email: erasedValue('email', lea),
      pseudo: erasedValue('pseudo', lea),
      passwordHash: erasedValue('secret', lea),
      bio: '',
      profilePicture: erasedValue('picture', lea),
    });
    expect(other!.pseudo).toBe('bob');
    expect(posted).toMatchObject({ commentId: 7, videoId: 3, authorId: lea, content: ERASED_TEXT });
    // a message Bob sent to Lea is Bob's: still readable
    expect(sent!.content).toBe('Salut Lea');
    for (const e of all) expect(eventProblem(e, eventSchemas)).toBeUndefined();
    await store.close();
    await keys.close();
  });

  it("refuses to append a destroyed member's personal data (MemberKeyDestroyedError, nothing stored), and stores an event carrying only erased values", async () => {
    const { store, log, keys } = open();
    await store.append('comment-7', events('comment-7', comment(lea, 'Premier')), 'no_stream');
    await keys.destroy(lea);
    await expect(store.append('comment-7', events('comment-7', comment(lea, 'Encore moi')), 0)).rejects.toBeInstanceOf(
      MemberKeyDestroyedError,
    );
    expect(await log.readStream('comment-7')).toHaveLength(1);
    const release: DomainEvent = {
      type: 'ValueReleased',
      data: { kind: 'pseudo', value: erasedValue('text', lea), userId: lea },
    };
    await store.append('claim', events('claim', release), 'no_stream');
    expect((await store.readStream('claim'))[0]!.data).toEqual(release.data);
    // events without personal data are not the key's business
    const liked: DomainEvent = { type: 'VideoLiked', data: { videoId: 3, userId: lea, ownerId: bob } };
    await store.append('like-3', events('like-3', liked), 'no_stream');
    await store.close();
    await keys.close();
  });

  it('reads events stored in clear (a log not migrated yet) as they are, and erases them too once the key is destroyed', async () => {
    const { store, log, keys } = open();
    await log.append('comment-7', events('comment-7', comment(lea, `${ENCRYPTED_PREFIX}pas chiffré`)), 'no_stream');
    await log.append('comment-8', events('comment-8', comment(lea, 'En clair')), 'no_stream');
    await keys.keyFor(lea);
    expect((await store.readStream('comment-7'))[0]!.data).toMatchObject({ content: `${ENCRYPTED_PREFIX}pas chiffré` });
    expect((await store.readStream('comment-8'))[0]!.data).toMatchObject({ content: 'En clair' });
    await keys.destroy(lea);
    expect((await store.readStream('comment-8'))[0]!.data).toMatchObject({ content: ERASED_TEXT });
    await store.close();
    await keys.close();
  });

  it("reads a member's events another process encrypted with a key made after this one last found none", async () => {
    const { store: a, log, keys: keysA, file } = open();
    const keysFile = path.join(path.dirname(file), 'keys.sqlite');
    const keysB = new CachedKeyStore(new SqliteKeyStore(keysFile));
    const b = new PersonalDataEventStore(log, keysB);
    // A reads a clear event of Léa's first: no key for her yet (remembered)
    await log.append('comment-6', events('comment-6', comment(lea, 'En clair')), 'no_stream');
    expect((await a.readStream('comment-6'))[0]!.data).toMatchObject({ content: 'En clair' });
    // B makes her key and encrypts with it
    await b.append('comment-7', events('comment-7', comment(lea, 'Chiffré par B')), 'no_stream');
    expect((await a.readStream('comment-7'))[0]!.data).toMatchObject({ content: 'Chiffré par B' });
    await keysB.close();
    await a.close();
    await keysA.close();
  });

  it('fails loudly on an encrypted field whose owner the key store does not know (the wrong key store): never reads it as erased', async () => {
    const { store, log, keys } = open();
    await store.append('comment-7', events('comment-7', comment(lea, 'Bravo')), 'no_stream');
    const dir = mkdtempSync(path.join(tmpdir(), 'evo-personal-'));
    dirs.push(dir);
    const otherKeys = new SqliteKeyStore(path.join(dir, 'keys.sqlite'));
    const wrong = new PersonalDataEventStore(log, otherKeys);
    await expect(wrong.readStream('comment-7')).rejects.toBeInstanceOf(MissingMemberKeyError);
    await otherKeys.close();
    await store.close();
    await keys.close();
  });

  describe('streams named by a personal value (uniqueness claims)', () => {
    const claim = (kind: 'email' | 'pseudo' | 'pseudoSkeleton', value: string, userId: string): DomainEvent => ({
      type: 'ValueReserved',
      data: { kind, value, userId, reservedAt: new Date().toISOString() },
    });

    it('are stored under a keyed hash of their name: the file holds neither the email nor the pseudo, and one claim per value still wins', async () => {
      const { store, log, keys, file } = open();
      const emailStream = reservationStream('email', 'Lea.Hidden@Example.com');
      const pseudoStream = reservationStream('pseudoSkeleton', 'LeaHidden');
      await store.append(emailStream, events(emailStream, claim('email', 'Lea.Hidden@Example.com', lea)), 'no_stream');
      await store.append(pseudoStream, events(pseudoStream, claim('pseudoSkeleton', 'LeaHidden', lea)), 'no_stream');
      const bytes = onDisk(file).toLowerCase();
      expect(bytes).not.toContain('lea.hidden');
      expect(bytes).not.toContain('leahidden');
      expect(await log.readStream(emailStream)).toEqual([]);
      const stored = [];
      for await (const batch of log.readAll()) stored.push(...batch.map((e) => e.streamId));
      expect(stored).toHaveLength(2);
      expect(stored[0]).toMatch(/^email~[A-Za-z0-9_-]{43}$/);
      expect(stored[1]).toMatch(/^pseudoskeleton~[A-Za-z0-9_-]{43}$/);
      // read under the name the domain gives, decrypted
      const [read] = await store.readStream(emailStream);
      expect(read).toMatchObject({ streamId: emailStream, data: { value: 'Lea.Hidden@Example.com', userId: lea } });
      // the same value (after normalisation) names the same stream: a second claim conflicts
      const again = reservationStream('email', ' lea.hidden@example.COM ');
      await expect(store.append(again, events(again, claim('email', 'x', bob)), 'no_stream')).rejects.toBeInstanceOf(
        WrongExpectedRevisionError,
      );
      await store.append(again, events(again, claim('email', 'lea.hidden@example.com', bob)), 0);
      expect(await store.readStream(emailStream)).toHaveLength(2);
      await store.close();
      await keys.close();
    });

    it('a claim written under its clear name (a log not migrated) is still found and appended to there: uniqueness holds across the two names', async () => {
      const { store, log, keys } = open();
      const old = reservationStream('email', 'ancien@example.com');
      await log.append(old, events(old, claim('email', 'ancien@example.com', lea)), 'no_stream');
      const [found] = await store.readStream(old);
      expect(found).toMatchObject({ data: { userId: lea } });
      await expect(
        store.append(old, events(old, claim('email', 'ancien@example.com', bob)), 'no_stream'),
      ).rejects.toBeInstanceOf(WrongExpectedRevisionError);
      await store.append(old, events(old, claim('email', 'ancien@example.com', bob)), 0);
      expect(await log.readStream(old)).toHaveLength(2);
      await store.close();
      await keys.close();
    });
  });
});
