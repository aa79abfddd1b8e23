import { createHmac } from 'node:crypto';
import {
  PERSONAL_FIELDS,
  erasedValue,
  personalDataOwner,
  personalStreamKind,
  type LogPosition,
  type NewEvent,
  type RecordedEvent,
} from '@evo/domain';
import type {
  AppendResult,
  EventStore,
  ExpectedRevision,
  SubscribeOptions,
  SubscriptionHandle,
} from '../eventstore/port';
import { MemberKeyDestroyedError, type KeyStore } from '../keys/port';
import { CachedKeyStore } from '../keys/cached-key-store';
import { decryptField, encryptField, isEncrypted } from './field-cipher';

/** An encrypted field whose owner has no key at all: the key store is not the one of this log. */
export class MissingMemberKeyError extends Error {
  constructor(
    readonly memberId: string,
    readonly position: LogPosition,
  ) {
    super(
      `L'événement à la position ${position} est chiffré avec la clé du membre ${memberId}, que le magasin de clés ne connaît pas : ce magasin de clés n'est pas celui de ce journal (restaurez-le depuis la sauvegarde faite avec le journal).`,
    );
    this.name = 'MissingMemberKeyError';
  }
}

const context = (type: string, field: string) => `${type}.${field}`;

/**
 * The name the log stores a stream under: a stream named by a personal value (`email-<email>`,
 * `pseudo-…`, `pseudoskeleton-…`) as `<kind>~<HMAC-SHA256 of its name under the platform secret>`
 * (base64url); every other stream as it is named.
 */
export function storedStreamId(secret: Buffer, streamId: string): string {
  const kind = personalStreamKind(streamId);
  return kind ? `${kind}~${createHmac('sha256', secret).update(streamId).digest('base64url')}` : streamId;
}

/** stored names kept in memory (a registration asks for the same three a few times) */
const HASHED_NAMES_KEPT = 10_000;
/**
 * decrypted fields kept in memory: every subscription of the process (projections, gift credits)
 * and the commands reading a stream get the same events; each field is decrypted once for all
 */
const CLEAR_TEXTS_KEPT = 20_000;

/**
 * The event store as every process uses it (crypto-shredding, issue 31): the personal fields of
 * each event (domain `PERSONAL_FIELDS`) are encrypted with their owner's key at append, after the
 * event was validated on its clear data, and decrypted on every read path. Once the owner's key
 * is destroyed, they read as their erased value (domain `erasedValue`), the event otherwise whole
 * and valid, whether they were stored encrypted or (a log not migrated yet) in clear; an append of
 * an event carrying that member's personal data is refused with MemberKeyDestroyedError (one whose
 * personal fields are the erased values themselves is stored as it is).
 *
 * The streams named by a personal value are stored under a keyed hash of their name
 * (storedStreamId); readStream and append take and answer their names as the domain builds them.
 * A log written before (not migrated yet by `npm run data:encrypt`) holds them under their clear
 * names: a value has one or the other, never both, so a read finds the hashed one or else the
 * clear one, and an append goes where the stream already is, new ones hashed.
 */
export class PersonalDataEventStore implements EventStore {
  constructor(
    readonly inner: EventStore,
    readonly keys: KeyStore,
    /** closeKeys: close() closes the key store too (when this store's maker opened it for it alone) */
    private readonly options: { closeKeys?: boolean } = {},
  ) {}

  private readonly hashedNames = new Map<string, string>();
  /** ciphertext → its owner, context and clear text (a ciphertext's random IV makes it unique) */
  private readonly clearTexts = new Map<string, { owner: string; context: string; clear: string }>();

  private decrypt(key: Buffer, owner: string, ctx: string, value: string): string | undefined {
    const kept = this.clearTexts.get(value);
    if (kept && kept.owner === owner && kept.context === ctx) return kept.clear;
    const clear = decryptField(key, ctx, value);
    if (clear !== undefined) {
      if (this.clearTexts.size >= CLEAR_TEXTS_KEPT) this.clearTexts.clear();
      this.clearTexts.set(value, { owner, context: ctx, clear });
    }
    return clear;
  }

  private async hashed(streamId: string): Promise<string> {
    let name = this.hashedNames.get(streamId);
    if (name === undefined) {
      name = storedStreamId(await this.keys.platformSecret(), streamId);
      if (this.hashedNames.size >= HASHED_NAMES_KEPT) this.hashedNames.clear();
      this.hashedNames.set(streamId, name);
    }
    return name;
  }

  /** where an append to a stream named by a personal value goes: its hashed name, unless it exists under its clear one */
  private async appendTarget(streamId: string): Promise<string> {
    if (!personalStreamKind(streamId)) return streamId;
    const hashed = await this.hashed(streamId);
    if ((await this.inner.readStream(hashed)).length > 0) return hashed;
    return (await this.inner.readStream(streamId)).length > 0 ? streamId : hashed;
  }

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    let sealed: NewEvent[] = events;
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      const owner = personalDataOwner(e.type, e.data);
      if (owner === undefined) continue;
      if (sealed === events) sealed = events.slice();
      sealed[i] = { ...e, data: await this.seal(e.type, e.data as Record<string, unknown>, owner) };
    }
    return this.inner.append(await this.appendTarget(streamId), sealed, expected);
  }

  private async seal(type: string, data: Record<string, unknown>, owner: string): Promise<Record<string, unknown>> {
    const fields = PERSONAL_FIELDS[type]!.fields;
    let key: Buffer;
    try {
      key = await this.keys.keyFor(owner);
    } catch (err) {
      // nothing personal to write (the erased values themselves, e.g. a claim released after the
      // erasure): stored as it is
      const erasedOnly = Object.entries(fields).every(
        ([field, as]) => data[field] === undefined || data[field] === erasedValue(as, owner),
      );
      if (err instanceof MemberKeyDestroyedError && erasedOnly) return data;
      throw err;
    }
    const out = { ...data };
    for (const field of Object.keys(fields)) {
      const v = out[field];
      if (typeof v === 'string') out[field] = encryptField(key, context(type, field), v);
    }
    return out;
  }

  /** The event as it reads: personal fields decrypted, or erased once their owner's key is destroyed. */
  async open<E extends RecordedEvent>(event: E): Promise<E> {
    const owner = personalDataOwner(event.type, event.data);
    if (owner === undefined) return event;
    return this.openWith(event, owner, await this.keyOf(event, owner, await this.keys.find(owner)));
  }

  /**
   * The owner's key as found, or, when the (cached) store had none yet the event holds a
   * ciphertext, as the store answers now (another process may have made it since).
   */
  private async keyOf(
    event: RecordedEvent,
    owner: string,
    found: Buffer | 'destroyed' | undefined,
  ): Promise<Buffer | 'destroyed' | undefined> {
    if (found !== undefined || !(this.keys instanceof CachedKeyStore)) return found;
    const data = event.data as Record<string, unknown>;
    for (const field in PERSONAL_FIELDS[event.type]!.fields)
      if (isEncrypted(data[field])) return this.keys.findFresh(owner);
    return found;
  }

  private openWith<E extends RecordedEvent>(event: E, owner: string, key: Buffer | 'destroyed' | undefined): E {
    const fields = PERSONAL_FIELDS[event.type]!.fields;
    const data = { ...(event.data as Record<string, unknown>) };
    for (const field in fields) {
      const v = data[field];
      if (typeof v !== 'string') continue;
      if (key === 'destroyed') data[field] = erasedValue(fields[field]!, owner);
      else if (isEncrypted(v)) {
        if (key === undefined) throw new MissingMemberKeyError(owner, event.position);
        // a clear text that merely starts like a ciphertext (a log not migrated yet) stays as it is
        data[field] = this.decrypt(key, owner, context(event.type, field), v) ?? v;
      }
    }
    return { ...event, data };
  }

  private async openAll(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    // the batch's owners asked together, once each, then every event opened without waiting
    let owners: Map<string, Buffer | 'destroyed' | undefined> | undefined;
    for (const e of events) {
      const owner = personalDataOwner(e.type, e.data);
      if (owner !== undefined) (owners ??= new Map()).set(owner, undefined);
    }
    if (!owners) return events;
    const found = await Promise.all([...owners.keys()].map((o) => this.keys.find(o)));
    let i = 0;
    for (const o of owners.keys()) owners.set(o, found[i++]);
    const out = events.slice();
    for (let j = 0; j < out.length; j++) {
      const e = out[j]!;
      const owner = personalDataOwner(e.type, e.data);
      if (owner === undefined) continue;
      let key = owners.get(owner);
      if (key === undefined) owners.set(owner, (key = await this.keyOf(e, owner, key)));
      out[j] = this.openWith(e, owner, key);
    }
    return out;
  }

  async readStream(streamId: string, fromRevision?: number): Promise<RecordedEvent[]> {
    if (personalStreamKind(streamId)) {
      const hashed = await this.inner.readStream(await this.hashed(streamId), fromRevision);
      // answered under the name asked for
      if (hashed.length > 0) return (await this.openAll(hashed)).map((e) => ({ ...e, streamId }));
    }
    return this.openAll(await this.inner.readStream(streamId, fromRevision));
  }

  async *readAll(from?: LogPosition, batchSize?: number): AsyncIterable<RecordedEvent[]> {
    for await (const batch of this.inner.readAll(from, batchSize)) yield await this.openAll(batch);
  }

  subscribeToAll(handler: (event: RecordedEvent) => Promise<void>, options?: SubscribeOptions): SubscriptionHandle {
    return this.inner.subscribeToAll(
      async (event) => handler(PERSONAL_FIELDS[event.type] ? await this.open(event) : event),
      options,
    );
  }

  lastPosition(): Promise<LogPosition | undefined> {
    return this.inner.lastPosition();
  }

  /** Closes the log; the key store is its builder's to close, unless given with closeKeys. */
  async close(): Promise<void> {
    await this.inner.close();
    if (this.options.closeKeys) await this.keys.close();
  }
}
