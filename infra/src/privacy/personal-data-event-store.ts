import {
  PERSONAL_FIELDS,
  erasedValue,
  personalDataOwner,
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
 * The event store as every process uses it (crypto-shredding, issue 31): the personal fields of
 * each event (domain `PERSONAL_FIELDS`) are encrypted with their owner's key at append, after the
 * event was validated on its clear data, and decrypted on every read path. Once the owner's key
 * is destroyed, they read as their erased value (domain `erasedValue`), the event otherwise whole
 * and valid, whether they were stored encrypted or (a log not migrated yet) in clear; an append of
 * an event carrying that member's personal data is refused with MemberKeyDestroyedError (one whose
 * personal fields are the erased values themselves is stored as it is).
 */
export class PersonalDataEventStore implements EventStore {
  constructor(
    readonly inner: EventStore,
    readonly keys: KeyStore,
    /** closeKeys: close() closes the key store too (when this store's maker opened it for it alone) */
    private readonly options: { closeKeys?: boolean } = {},
  ) {}

  async append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult> {
    let sealed: NewEvent[] = events;
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      const owner = personalDataOwner(e.type, e.data);
      if (owner === undefined) continue;
      if (sealed === events) sealed = events.slice();
      sealed[i] = { ...e, data: await this.seal(e.type, e.data as Record<string, unknown>, owner) };
    }
    return this.inner.append(streamId, sealed, expected);
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
    const key = await this.keys.find(owner);
    const fields = PERSONAL_FIELDS[event.type]!.fields;
    const data = { ...(event.data as Record<string, unknown>) };
    for (const [field, as] of Object.entries(fields)) {
      const v = data[field];
      if (typeof v !== 'string') continue;
      if (key === 'destroyed') data[field] = erasedValue(as, owner);
      else if (isEncrypted(v)) {
        if (key === undefined) throw new MissingMemberKeyError(owner, event.position);
        // a clear text that merely starts like a ciphertext (a log not migrated yet) stays as it is
        data[field] = decryptField(key, context(event.type, field), v) ?? v;
      }
    }
    return { ...event, data };
  }

  private async openAll(events: RecordedEvent[]): Promise<RecordedEvent[]> {
    // the batch's owners asked together (the key store's cache then answers each event)
    const owners = new Set<string>();
    for (const e of events) {
      const owner = personalDataOwner(e.type, e.data);
      if (owner !== undefined) owners.add(owner);
    }
    if (owners.size === 0) return events;
    if (owners.size > 1) await Promise.all([...owners].map((o) => this.keys.find(o)));
    let out: RecordedEvent[] | undefined;
    for (let i = 0; i < events.length; i++) {
      const e = events[i]!;
      if (!PERSONAL_FIELDS[e.type]) continue;
      out ??= events.slice();
      out[i] = await this.open(e);
    }
    return out ?? events;
  }

  async readStream(streamId: string, fromRevision?: number): Promise<RecordedEvent[]> {
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
