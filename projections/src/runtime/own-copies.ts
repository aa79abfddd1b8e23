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
 * collection (`<projector>_members`, `<projector>_videos`): one writer per document.
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

export const MEMBER_COPY_EVENTS = ['UserRegistered', 'ProfileUpdated', ...MEMBER_GONE_EVENTS] as const;

export interface MemberCopies {
  readonly collection: string;
  readonly eventTypes: readonly AppEvent['type'][];
  /** Keeps the copy up to date: call it with each event of the projector, before using the copy. */
  project(event: RecordedAppEvent, store: ReadStore): Promise<void>;
  /** The member as the log stood at the event being projected; null when unknown or deleted. */
  find(store: ReadStore, id: string): Promise<MemberCopy | null>;
}

export function memberCopies(collection: string): MemberCopies {
  return {
    collection,
    eventTypes: MEMBER_COPY_EVENTS,
    async project(event, store) {
      const members = store.collection<MemberCopy>(collection);
      switch (event.type) {
        case 'UserRegistered': {
          const { userId, email, pseudo, profilePicture } = event.data;
          await applyOnce(
            members,
            userId,
            event.position,
            { $set: { email, pseudo, profile_picture: profilePicture } },
            { upsert: true },
          );
          return;
        }
        case 'ProfileUpdated':
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
    find: (store, id) => store.collection<MemberCopy>(collection).findOne({ _id: id }, { projection: { _pos: 0 } }),
  };
}

/** A video as another projector shows it. */
export interface VideoCopy extends Doc {
  _id: number;
  owner_id: string;
  title: string;
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
 * deletion after another's can still tell which videos were theirs.
 */
export function videoCopies(collection: string): VideoCopies {
  return {
    collection,
    eventTypes: VIDEO_COPY_EVENTS,
    indexes: [{ key: { owner_id: 1 } }],
    async project(event, store) {
      const videos = store.collection<VideoCopy>(collection);
      switch (event.type) {
        case 'VideoUploaded': {
          const { videoId, ownerId, title } = event.data;
          await applyOnce(videos, videoId, event.position, { $set: { owner_id: ownerId, title } }, { upsert: true });
          return;
        }
        case 'AccountDeleted':
          await videos.updateMany({ owner_id: event.data.userId }, { $set: { title: '' } });
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
