import type { AppEvent, RecordedAppEvent } from '@evo/domain';
import type { Doc, ReadStore } from '@evo/infra';
import { MEMBER_GONE_EVENTS } from './member-gone';
import { applyOnce } from './write-once';

/*
 * What a projector shows of another member (pseudo, email, picture) or of a video (title, owner),
 * kept by the projector itself from the events, in a collection of its own. It never reads the
 * `users` or `videos` read models while projecting, so it comes out the same whichever projector
 * runs first, or alone over the whole log (projections/src/any-order.test.ts). The copy follows
 * the same events as those read models: registered, picture changed, account deleted (the copy
 * goes, as the member's document does), erased. Each projector that needs one names its own
 * collection (`comment_authors`, `message_parties`, `report_videos`, …): one writer per document.
 */

/** The event types of a projector that keeps copies: its own and its copies', each once. */
export const eventTypesOf = (...lists: ReadonlyArray<readonly AppEvent['type'][]>): AppEvent['type'][] => [
  ...new Set(lists.flat()),
];

/** A member as another projector shows them. */
export interface MemberCopy extends Doc {
  _id: string;
  email: string;
  pseudo: string;
  profile_picture: string;
}

/** What a projector may copy of a member: only what it shows (an email is personal data). */
export type MemberField = 'email' | 'pseudo' | 'profile_picture';

export interface MemberCopies<F extends MemberField> {
  readonly collection: string;
  readonly eventTypes: readonly AppEvent['type'][];
  /** Keeps the copy up to date: call it with each event of the projector, before using the copy. */
  project(event: RecordedAppEvent, store: ReadStore): Promise<void>;
  /** The member as the log stood at the event being projected; null when unknown or deleted. */
  find(store: ReadStore, id: string): Promise<Pick<MemberCopy, '_id' | F> | null>;
}

export function memberCopies<F extends MemberField>(collection: string, fields: readonly F[]): MemberCopies<F> {
  const keeps = (field: MemberField) => (fields as readonly MemberField[]).includes(field);
  const projection = Object.fromEntries(fields.map((f) => [f, 1 as const]));
  return {
    collection,
    // a picture changes: only a copy that keeps pictures follows it
    eventTypes: [
      'UserRegistered',
      ...(keeps('profile_picture') ? ['ProfileUpdated' as const] : []),
      ...MEMBER_GONE_EVENTS,
    ],
    async project(event, store) {
      const members = store.collection<MemberCopy>(collection);
      switch (event.type) {
        case 'UserRegistered': {
          const { userId, email, pseudo, profilePicture } = event.data;
          const member = { email, pseudo, profile_picture: profilePicture };
          const copied = Object.fromEntries(fields.map((f) => [f, member[f]]));
          await applyOnce(members, userId, event.position, { $set: copied }, { upsert: true });
          return;
        }
        case 'ProfileUpdated':
          if (keeps('profile_picture'))
            await applyOnce(members, event.data.userId, event.position, {
              $set: { profile_picture: event.data.profilePicture },
            });
          return;
        case 'AccountDeleted':
        case 'MemberErased':
          await members.deleteOne({ _id: event.data.userId });
          return;
        default:
          return;
      }
    },
    find: (store, id) => store.collection<MemberCopy>(collection).findOne({ _id: id }, { projection }),
  };
}

/**
 * How a read model shows a member beside what it is about: `fields` of their copy under the
 * read model's names (`shownAs('sender', m, ['pseudo'])` is `{ sender_pseudo }`), in that order,
 * each '' when the member is unknown or deleted.
 */
export function shownAs<P extends string, F extends MemberField>(
  prefix: P,
  member: Pick<MemberCopy, F> | null,
  fields: readonly F[],
): { [K in F as `${P}_${K}`]: string } {
  return Object.fromEntries(fields.map((f) => [`${prefix}_${f}`, member?.[f] ?? ''])) as {
    [K in F as `${P}_${K}`]: string;
  };
}

/** A video as another projector shows it. */
export interface VideoCopy extends Doc {
  _id: number;
  owner_id: string;
  /** kept only by the copies that show it */
  title?: string;
}

export const VIDEO_COPY_EVENTS = ['VideoUploaded', ...MEMBER_GONE_EVENTS] as const;

export interface VideoCopies {
  readonly collection: string;
  readonly eventTypes: readonly AppEvent['type'][];
  readonly indexes: readonly [{ key: { owner_id: 1 } }];
  /** Keeps the copy up to date: call it with each event of the projector, before using the copy. */
  project(event: RecordedAppEvent, store: ReadStore): Promise<void>;
  find(store: ReadStore, id: number): Promise<VideoCopy | null>;
  /** The videos a member uploaded (and that are not erased yet). */
  ownedBy(store: ReadStore, ownerId: string): Promise<VideoCopy[]>;
}

/**
 * Videos' titles and owners. A deleted member's videos keep their owner and lose their title until
 * the erasure removes them (as the `videos` read model does), so a projector that sees the
 * deletion after another's can still tell which videos were theirs. `titles: false`: the owners only.
 */
export function videoCopies(collection: string, { titles }: { titles: boolean }): VideoCopies {
  return {
    collection,
    eventTypes: VIDEO_COPY_EVENTS,
    indexes: [{ key: { owner_id: 1 } }],
    async project(event, store) {
      const videos = store.collection<VideoCopy>(collection);
      switch (event.type) {
        case 'VideoUploaded': {
          const { videoId, ownerId, title } = event.data;
          const copied = titles ? { owner_id: ownerId, title } : { owner_id: ownerId };
          await applyOnce(videos, videoId, event.position, { $set: copied }, { upsert: true });
          return;
        }
        case 'AccountDeleted':
          if (titles) await videos.updateMany({ owner_id: event.data.userId }, { $set: { title: '' } });
          return;
        case 'MemberErased':
          await videos.deleteMany({ owner_id: event.data.userId });
          return;
        default:
          return;
      }
    },
    find: (store, id) => store.collection<VideoCopy>(collection).findOne({ _id: id }, { projection: { _pos: 0 } }),
    ownedBy: (store, ownerId) =>
      store.collection<VideoCopy>(collection).find({ owner_id: ownerId }, { projection: { _pos: 0 } }),
  };
}
