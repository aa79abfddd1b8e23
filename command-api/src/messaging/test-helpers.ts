import { randomUUID } from 'node:crypto';
import { followDecider, followingStream, likeStream, videoDecider, videoStream } from '@evo/domain';
import { handleCommand, toNewEvents, type CommandContext } from '@evo/infra';
import { identityQueries } from '@evo/projections';
import type { TestServer, Client } from '../testing/test-server';
import { expectRefusalsBy, expectRefusedBy, settledLastPosition, type Refusal } from '../testing/refusals';

/** Test helpers of the comments, notifications and messaging slices. */
export function slice(server: TestServer) {
  const { events, read } = server.deps;
  const ctx = (userId?: string): CommandContext => ({ userId, correlationId: randomUUID(), now: new Date() });
  const lastPosition = () => settledLastPosition(server);
  /** the read models include everything written so far (another member's writes included) */
  const settle = () => server.settle(5000, { jobs: false });
  const userId = async (email: string) => {
    // the read models follow the log apart from the requests: a member just registered may not be there yet
    await settle();
    const u = await identityQueries(read).userByEmail(email);
    if (!u) throw new Error(`no member ${email}`);
    return u._id;
  };
  return {
    lastPosition,
    userId,
    settle,
    /** The request must be refused with this status and French message, and append nothing. */
    expectRefused: (
      send: () => Promise<{ status: number; json: { error?: string } }>,
      status: number,
      error?: string,
    ) => expectRefusedBy(server, send, status, error),
    /** Each request in turn must be refused as its case says, and append nothing. */
    expectRefusals: (cases: Refusal[]) => expectRefusalsBy(server, cases),
    /** a follows b, through the social slice's decider */
    async follow(a: string, b: string, type: 'Follow' | 'Unfollow' = 'Follow') {
      const [followerId, followeeId] = [await userId(a), await userId(b)];
      return (
        await handleCommand(
          events,
          followingStream(followerId),
          followDecider,
          { type, followerId, followeeId, now: new Date() },
          ctx(followerId),
        )
      ).position;
    },
    /** a likes video v of its owner (appended as the social slice would) */
    async like(email: string, videoId: number, ownerEmail: string) {
      const [u, ownerId] = [await userId(email), await userId(ownerEmail)];
      const stream = likeStream(videoId, u);
      return (
        await events.append(
          stream,
          toNewEvents([{ type: 'VideoLiked', data: { videoId, userId: u, ownerId } }], stream, ctx(u)),
          'any',
        )
      ).position;
    },
    async deleteVideo(ownerEmail: string, videoId: number) {
      const ownerId = await userId(ownerEmail);
      await handleCommand(
        events,
        videoStream(videoId),
        videoDecider,
        { type: 'DeleteVideo', videoId, requesterId: ownerId, requesterIsAdmin: false, now: new Date() },
        ctx(ownerId),
      );
    },
    async firstVideoId(client: Client, pseudo: string): Promise<number> {
      const p = await client.get(`/api/users/profile/${pseudo}`);
      const videos = p.json.videos as Array<{ id: number }>;
      return videos[videos.length - 1].id;
    },
  };
}
