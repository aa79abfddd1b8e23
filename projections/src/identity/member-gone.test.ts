import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DELETED_MEMBER_LABEL, type DomainEvent, type RecordedAppEvent } from '@evo/domain';
import { SqliteEventStore, SqliteReadStore, toNewEvents, type EventStore } from '@evo/infra';
import { allProjectors } from '../registry';
import { dumpReadModels } from '../testing/read-model-dump';
import { registerMember, uploadVideo } from '../testing/member-commands';
import { closedAfterEach } from '../testing/test-lifecycle';
import { minuteApartContexts } from '../testing/member-commands';
import { USERS, type UserDoc } from './users-projector';
import { VIDEOS, type VideoDoc } from '../videos/videos-projector';
import { COMMENTS, COMMENT_COUNTS, type CommentDoc } from '../comments/comments-projector';
import { CREATOR_COUNTERS, VIDEO_COUNTERS } from '../social/video-counters-projector';
import { FOLLOW_COUNTS } from '../social/follows-projector';
import { videoCounts } from './queries';

const open = closedAfterEach<SqliteEventStore>();
const ctx = minuteApartContexts(Date.UTC(2026, 5, 1, 8));

/** Every projector over the log, each event delivered `times` times (a redelivery changes nothing). */
async function project(events: EventStore, times = 1) {
  const read = SqliteReadStore.temporary();
  const quiet = { live: false, push: () => {}, rooms: () => {} };
  for await (const batch of events.readAll(undefined, 100))
    for (const e of batch)
      for (let t = 0; t < times; t++)
        for (const p of allProjectors) await p.project(e as RecordedAppEvent, read, quiet);
  return read;
}

describe('a deleted member leaves the read models', () => {
  it("on AccountDeleted, and what raced in on MemberErased; other members' counters follow; a reply keeps its placeholder; redelivery changes nothing", async () => {
    const events = new SqliteEventStore(':memory:');
    open.push(events);
    const append = (stream: string, e: DomainEvent, actor: string) =>
      events.append(stream, toNewEvents([e], stream, ctx(actor)), 'any');
    const [alice, bob] = [randomUUID(), randomUUID()];
    for (const [id, pseudo] of [
      [alice, 'alice'],
      [bob, 'bob'],
    ])
      await registerMember(
        events,
        { userId: id, email: `${pseudo}@test.fr`, pseudo, bio: `Bio de ${pseudo}`, profilePicture: `${pseudo}.png` },
        ctx(id),
      );
    await uploadVideo(events, { videoId: 1, ownerId: bob, title: 'Clip de bob' }, ctx(bob));
    await uploadVideo(events, { videoId: 2, ownerId: alice, title: "Clip d'alice" }, ctx(alice));
    await append(`following-${alice}`, { type: 'UserFollowed', data: { followerId: alice, followeeId: bob } }, alice);
    await append(`following-${bob}`, { type: 'UserFollowed', data: { followerId: bob, followeeId: alice } }, bob);
    await append(`like-1-${alice}`, { type: 'VideoLiked', data: { videoId: 1, userId: alice, ownerId: bob } }, alice);
    const comment = (commentId: number, authorId: string, content: string, parentId: number | null = null) =>
      append(
        `comment-${commentId}`,
        { type: 'CommentPosted', data: { commentId, videoId: 1, videoOwnerId: bob, authorId, parentId, content } },
        authorId,
      );
    await comment(1, alice, 'Texte secret d’alice');
    await comment(2, bob, 'Merci alice', 1);
    await append(`user-${alice}`, { type: 'AccountDeleted', data: { userId: alice } }, alice);
    // decided before the deletion, appended after it (another tab)
    await comment(3, alice, 'Texte secret arrivé en retard');

    const between = await project(events);
    const late = await between.collection<CommentDoc>(COMMENTS).findOne({ _id: 3 });
    expect(late?.content).toBe('Texte secret arrivé en retard');

    await append(`user-${alice}`, { type: 'MemberErased', data: { userId: alice, files: 0 } }, alice);
    const once = await project(events);
    const twice = await project(events, 2);
    expect(await dumpReadModels(twice)).toEqual(await dumpReadModels(once));

    const dump = JSON.stringify(await dumpReadModels(once));
    for (const needle of ['alice@test.fr', 'Bio de alice', 'Texte secret', "Clip d'alice"])
      expect(dump, needle).not.toContain(needle);
    expect(await once.collection(FOLLOW_COUNTS).findOne({ _id: bob })).toMatchObject({
      followers_count: 0,
      following_count: 0,
    });
    expect(await once.collection(CREATOR_COUNTERS).findOne({ _id: bob })).toMatchObject({ total_likes: 0 });
    expect(await once.collection<UserDoc>(USERS).findOne({ _id: alice })).toBeNull();
    for (const coll of [FOLLOW_COUNTS, CREATOR_COUNTERS])
      expect(await once.collection(coll).findOne({ _id: alice }), coll).toBeNull();
    expect((await videoCounts(once, [1])).get(1)).toMatchObject({ likes_count: 0, comments_count: 2 });
    expect(await once.collection<VideoDoc>(VIDEOS).findOne({ _id: 2 })).toBeNull();
    for (const coll of [VIDEO_COUNTERS, COMMENT_COUNTS])
      expect(await once.collection(coll).findOne({ _id: 2 }), coll).toBeNull();
    const thread = await once.collection<CommentDoc>(COMMENTS).find({ video_id: 1 }, { sort: { id: 1 } });
    expect(thread.map((c) => [c.id, c.user_pseudo, c.content, c.author_deleted ?? false])).toEqual([
      [1, DELETED_MEMBER_LABEL, '', true],
      [2, 'bob', 'Merci alice', false],
    ]);
  });
});
