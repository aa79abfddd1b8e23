import {
  commentDecider,
  commentStream,
  decideView,
  userDecider,
  userStream,
  videoDecider,
  videoStream,
  viewsStream,
  walletDecider,
  walletStream,
  type GiftSent,
  type VideoState,
} from '@evo/domain';
import { handleCommand, loadState, toNewEvents, type CommandContext, type EventStore } from '@evo/infra';
import { randomUUID } from 'node:crypto';

/**
 * The member and video facts test histories write through the real deciders and command loop. The
 * commands keep the fields in the deciders' order, since the events carry them as they come.
 */

/** A command of `userId` (none: the system's) at `now`, with a correlation of its own. */
export const commandAt = (userId: string | undefined, now: Date): CommandContext => ({
  userId,
  correlationId: randomUUID(),
  now,
});

/** Command contexts one minute apart from `start` (epoch ms), in the order they are asked for. */
export function minuteApartContexts(start: number): (userId?: string) => CommandContext {
  let clock = start;
  return (userId?: string) => commandAt(userId, new Date((clock += 60_000)));
}

/** A member registered with the password hash 'h'. */
export function registerMember(
  events: EventStore,
  member: { userId: string; email: string; pseudo: string; bio: string; profilePicture: string },
  context: CommandContext,
) {
  const { userId, email, pseudo, bio, profilePicture } = member;
  return handleCommand(
    events,
    userStream(userId),
    userDecider,
    { type: 'RegisterUser', userId, email, pseudo, passwordHash: 'h', bio, profilePicture },
    context,
  );
}

/** A new member named `pseudo` (email <pseudo>@test.fr, picture <pseudo>.png), registered at `contextOf(their id)`; answers their id. */
export async function newMember(
  events: EventStore,
  pseudo: string,
  contextOf: (userId: string) => CommandContext,
  bio = '',
): Promise<string> {
  const userId = randomUUID();
  await registerMember(
    events,
    { userId, email: `${pseudo}@test.fr`, pseudo, bio, profilePicture: `${pseudo}.png` },
    contextOf(userId),
  );
  return userId;
}

/** An uploaded MP4 of one byte with no description, at /uploads/videos/<id>.mp4 unless `filePath` says otherwise. */
export function uploadVideo(
  events: EventStore,
  video: { videoId: number; ownerId: string; title: string; filePath?: string },
  context: CommandContext,
) {
  const { videoId, ownerId, title, filePath = `/uploads/videos/${videoId}.mp4` } = video;
  return handleCommand(
    events,
    videoStream(videoId),
    videoDecider,
    {
      type: 'UploadVideo',
      videoId,
      ownerId,
      title,
      description: '',
      filePath,
      mimeType: 'video/mp4',
      sizeBytes: 1,
    },
    context,
  );
}

/** The video's current state, as a command handler loads it. */
export async function videoState(events: EventStore, videoId: number): Promise<VideoState> {
  return (await loadState(events, videoStream(videoId), videoDecider)).state;
}

/** A comment on the video as it stands, a reply when `parentId` names a comment (the parent as it stands too). */
export async function postComment(
  events: EventStore,
  comment: { commentId: number; videoId: number; authorId: string; parentId: number | null; content: string },
  context: CommandContext,
) {
  const { commentId, videoId, authorId, parentId, content } = comment;
  const video = await videoState(events, videoId);
  const parent =
    parentId === null ? null : (await loadState(events, commentStream(parentId), commentDecider)).state.comment;
  return handleCommand(
    events,
    commentStream(commentId),
    commentDecider,
    { type: 'PostComment', commentId, videoId, authorId, parentId, content, video, parent },
    context,
  );
}

/**
 * A Rose (catalogue gift 1) of `coinCost` coins sent with a 10 % fee at `sentAt`, then credited to
 * the receiver at `creditedAt`, as the gift credits do (no member acting).
 */
export async function giveRose(
  events: EventStore,
  gift: { giftId: number; senderId: string; receiverId: string; coinCost: number },
  sentAt: Date,
  creditedAt = sentAt,
) {
  const { giftId, senderId, receiverId, coinCost } = gift;
  const sent = await handleCommand(
    events,
    walletStream(senderId),
    walletDecider,
    {
      type: 'SendGift',
      userId: senderId,
      giftId,
      receiverId,
      gift: { id: 1, name: 'Rose', emoji: '🌹', coinCost },
      feePercent: 10,
    },
    commandAt(senderId, sentAt),
  );
  await handleCommand(
    events,
    walletStream(receiverId),
    walletDecider,
    {
      type: 'ReceiveGift',
      userId: receiverId,
      sent: sent.events[0].data as GiftSent['data'],
      sentAt: sentAt.toISOString(),
    },
    commandAt(undefined, creditedAt),
  );
}

/** One view of the video by `userId`, appended as the views slice does (no expected version). */
export async function viewVideo(events: EventStore, videoId: number, userId: string, context: CommandContext) {
  await events.append(
    viewsStream(videoId),
    toNewEvents(decideView(await videoState(events, videoId), userId), viewsStream(videoId), context),
    'any',
  );
}
