import { randomUUID } from 'node:crypto';
import {
  DEFAULT_PROFILE_PICTURE,
  conflict,
  MESSAGES,
  reservationDecider,
  reservationStream,
  userDecider,
  userStream,
  videoDecider,
  videoStream,
  type LogPosition,
  type ReservationKind,
} from '@evo/domain';
import type { EventStore, IdAllocator } from '@evo/infra';
import { handleCommand, loadState, maxPosition, type CommandContext } from '@evo/infra';
import { findMemberBy } from './members';

export interface NewVideo {
  title: string;
  description: string;
  filePath: string;
  mimeType: string;
  sizeBytes: number;
}

/** The command that claims a value, with whether its current owner is a registered member. */
async function reserveCommand(events: EventStore, kind: ReservationKind, value: string, userId: string, now: Date) {
  const { state } = await loadState(events, reservationStream(kind, value), reservationDecider);
  const checkedOwner = state.ownerId;
  const ownerStream = checkedOwner !== null ? await events.readStream(userStream(checkedOwner)) : [];
  const ownerRegistered = ownerStream.length > 0;
  // a deleted member's claims are free again after the grace period (ACCOUNT_DELETION_GRACE_DAYS)
  const ownerDeletedAt = ownerStream.find((e) => e.type === 'AccountDeleted')?.metadata.at ?? null;
  return {
    state,
    checkedOwner,
    ownerRegistered,
    ownerDeletedAt,
    command: { type: 'Reserve' as const, kind, value: value.trim(), userId, now, ownerRegistered, ownerDeletedAt },
  };
}

/** Claim a unique email or pseudo for `userId`, taking over only abandoned claims. */
async function reserve(events: EventStore, kind: ReservationKind, value: string, userId: string, ctx: CommandContext) {
  const streamId = reservationStream(kind, value);
  const { checkedOwner, ownerRegistered, ownerDeletedAt } = await reserveCommand(events, kind, value, userId, ctx.now);
  return handleCommand(
    events,
    streamId,
    reservationDecider,
    (s) => ({
      type: 'Reserve' as const,
      kind,
      value: value.trim(),
      userId,
      now: ctx.now,
      // if the owner changed meanwhile we did not look it up: assume it is a real member
      ownerRegistered: s.ownerId === checkedOwner ? ownerRegistered : true,
      ownerDeletedAt: s.ownerId === checkedOwner ? ownerDeletedAt : null,
    }),
    ctx,
  );
}

async function release(events: EventStore, kind: ReservationKind, value: string, userId: string, ctx: CommandContext) {
  await handleCommand(
    events,
    reservationStream(kind, value),
    reservationDecider,
    { type: 'Release', kind, value: value.trim(), userId },
    ctx,
  );
}

/** A new video of `ownerId`, its id drawn from the process's allocator (`ids`). */
export async function uploadVideo(
  events: EventStore,
  ids: IdAllocator,
  ownerId: string,
  video: NewVideo,
  ctx: CommandContext,
) {
  const videoId = await ids.next('video', ctx);
  const r = await handleCommand(
    events,
    videoStream(videoId),
    videoDecider,
    { type: 'UploadVideo', videoId, ownerId, ...video },
    ctx,
  );
  return { videoId, position: r.position };
}

/**
 * Register a member (and their first video, when given). The pseudo, its look-alike skeleton and
 * the email are claimed first through their reservation streams, so two concurrent registrations
 * of one pseudo (or of two pseudos that look alike) give one success and one French error; a
 * failure after a claim releases the claims taken.
 */
export async function registerUser(
  events: EventStore,
  input: { email: string; pseudo: string; passwordHash: string; bio: string; profilePicture?: string },
  /** the video uploaded with the registration, and where its id is drawn */
  firstVideo: { video: NewVideo; ids: IdAllocator } | undefined,
  ctx: CommandContext,
): Promise<{ userId: string; videoId?: number; position: LogPosition | undefined }> {
  const userId = randomUUID();
  const c = { ...ctx, userId };
  // refuse a taken email or pseudo before claiming anything, so a refusal appends nothing
  // (concurrent registrations are still settled by the claims themselves)
  const claims = [
    ['pseudo', input.pseudo],
    ['pseudoSkeleton', input.pseudo],
    ['email', input.email],
  ] as const;
  for (const [kind, value] of claims) {
    const pre = await reserveCommand(events, kind, value, userId, ctx.now);
    reservationDecider.decide(pre.command, pre.state);
  }
  const taken: Array<(typeof claims)[number]> = [];
  try {
    for (const claim of claims) {
      await reserve(events, claim[0], claim[1], userId, c);
      taken.push(claim);
    }
  } catch (e) {
    for (const [kind, value] of taken.reverse()) await release(events, kind, value, userId, c);
    throw e;
  }
  const registered = await handleCommand(
    events,
    userStream(userId),
    userDecider,
    {
      type: 'RegisterUser',
      userId,
      email: input.email.trim(),
      pseudo: input.pseudo.trim(),
      passwordHash: input.passwordHash,
      bio: input.bio,
      profilePicture: input.profilePicture ?? DEFAULT_PROFILE_PICTURE,
    },
    c,
  );
  if (!firstVideo) return { userId, position: registered.position };
  const video = await uploadVideo(events, firstVideo.ids, userId, firstVideo.video, c);
  return { userId, videoId: video.videoId, position: maxPosition(registered.position, video.position) };
}

export async function recordLogin(events: EventStore, userId: string, ctx: CommandContext) {
  return handleCommand(events, userStream(userId), userDecider, { type: 'RecordLogin', userId }, ctx);
}

/** The member of `email` once registered; throws the email's claim error if none appears within `timeoutMs`. */
async function waitForMember(events: EventStore, email: string, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const user = await findMemberBy(events, 'email', email);
    if (user) return user;
    if (Date.now() > until) throw conflict(MESSAGES.emailTaken);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Hashing and checking passwords (argon2id in the product: `passwordHasher`; cheap stand-ins in unit tests). */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** false without a hash (an unknown member), after the time a check takes */
  verify(hash: string | undefined, password: string): Promise<boolean>;
}

/**
 * Who changes a password the operator gave (ADMIN_PASSWORD, DEMO_PASSWORD): the platform itself,
 * named as such in the event's metadata and the administrators' audit log.
 */
export const SYSTEM_ACTOR = 'system';

/**
 * `password` becomes the member's when it is not already theirs (a hash is salted: the check is
 * a verification, not a comparison of hashes). Answers whether it changed anything.
 */
export async function applyPassword(
  events: EventStore,
  member: { userId: string; passwordHash: string },
  password: string,
  passwords: PasswordHasher,
  ctx: CommandContext,
): Promise<boolean> {
  if (await passwords.verify(member.passwordHash, password)) return false;
  const passwordHash = await passwords.hash(password);
  await handleCommand(
    events,
    userStream(member.userId),
    userDecider,
    { type: 'ChangePassword', userId: member.userId, passwordHash },
    { ...ctx, userId: SYSTEM_ACTOR },
  );
  return true;
}

/**
 * The administrator of ADMIN_EMAIL exists and holds the role, whatever happened before: safe to
 * run at every start. With `apply` (ADMIN_PASSWORD was given), an existing administrator whose
 * password is another gets this one (`PasswordChanged`, actor "system").
 */
export async function ensureAdmin(
  events: EventStore,
  admin: { email: string; password: string; apply?: boolean },
  passwords: PasswordHasher,
  ctx: CommandContext,
): Promise<{ passwordChanged: boolean }> {
  let user = await findMemberBy(events, 'email', admin.email);
  let passwordChanged = false;
  if (user && admin.apply) passwordChanged = await applyPassword(events, user, admin.password, passwords, ctx);
  if (!user) {
    const base =
      admin.email
        .split('@')[0]
        .replace(/[^\p{L}\p{N}_.-]/gu, '')
        .slice(0, 24) || 'admin';
    const pseudo = base.length >= 3 ? base : `${base}_admin`;
    const passwordHash = await passwords.hash(admin.password);
    for (let i = 0; !user; i++) {
      try {
        await registerUser(
          events,
          { email: admin.email, pseudo: i === 0 ? pseudo : `${pseudo}${i}`, passwordHash, bio: 'Administrateur EVO' },
          undefined,
          ctx,
        );
      } catch (e) {
        const message = (e as Error).message;
        // another process (an API replica starting at the same time) is registering this administrator:
        // its email claim is taken before its account exists, so wait for the account
        if (message === MESSAGES.emailTaken) user = await waitForMember(events, admin.email, 10_000);
        else if (message !== MESSAGES.pseudoTaken || i > 20) throw e;
      }
      user ??= await findMemberBy(events, 'email', admin.email);
    }
  }
  await handleCommand(events, userStream(user.userId), userDecider, { type: 'GrantAdmin', userId: user.userId }, ctx);
  return { passwordChanged };
}
