import {
  ADMIN_OPERATIONS_STREAM,
  operationsDecider,
  userDecider,
  userStream,
  videoDecider,
  videoStream,
  type GiftDescription,
  type VideoVisibility,
} from '@evo/domain';
import { handleCommand, type CommandContext, type EventStore } from '@evo/infra';
import type { AdminQueries } from '@evo/projections';
import type { CatalogueRepository } from '../coins/wallets';
import { isAdminByStream, requireMemberBy } from '../identity/members';

/**
 * The administrators' commands. Each decides from streams: the requester's role from their user
 * stream, the catalogue from `gift-catalogue` (reports: `moderation/commands.ts`). Every
 * event they append names the administrator in its metadata (`ctx.userId`).
 */

export async function setVideoVisibility(
  events: EventStore,
  requesterId: string,
  videoId: number,
  visibility: VideoVisibility,
  ctx: CommandContext,
  /** the sanction message of a hide or delete (issue 32); SPEC's matching one when absent */
  reason?: string | null,
) {
  const requesterIsAdmin = await isAdminByStream(events, requesterId);
  return handleCommand(
    events,
    videoStream(videoId),
    videoDecider,
    { type: 'SetVideoVisibility', videoId, visibility, requesterId, requesterIsAdmin, now: ctx.now, reason },
    ctx,
  );
}

/** Catalogue edits: ids come from the catalogue itself (highest ever + 1). */
export const catalogueCommands = (repo: CatalogueRepository) => {
  return {
    add: (gift: GiftDescription, ctx: CommandContext) => repo.execute({ type: 'AddGift', gift }, ctx),
    update: (giftId: number, gift: GiftDescription, ctx: CommandContext) =>
      repo.execute({ type: 'UpdateGift', giftId, gift }, ctx),
    remove: (giftId: number, ctx: CommandContext) => repo.execute({ type: 'RemoveGift', giftId }, ctx),
    current: () => repo.current(),
  };
};

/**
 * Granting and revoking the administrator role. The changes made through one instance run one
 * after the other: two administrators revoking themselves at once cannot both see the other as
 * the remaining administrator (across processes the ADMIN_EMAIL administrator is granted again at
 * every start anyway). The admin router builds one instance for the app it serves.
 */
export function adminRoleCommands(events: EventStore) {
  let roleChanges: Promise<unknown> = Promise.resolve();
  const serialized = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = roleChanges.catch(() => undefined).then(fn);
    roleChanges = run;
    return run;
  };

  const grant = (email: string, ctx: CommandContext) =>
    serialized(async () => {
      const user = await requireMemberBy(events, 'email', email);
      return handleCommand(
        events,
        userStream(user.userId),
        userDecider,
        { type: 'GrantAdmin', userId: user.userId },
        ctx,
      );
    });

  /**
   * Revoke a member's role. The platform keeps an administrator: revoking one's own role is
   * refused when no other administrator remains. The other administrators are looked for among
   * those the read model lists, each confirmed on their own stream (a stale read model can only
   * make the answer more careful: a not yet projected administrator is not counted).
   */
  const revoke = (admins: AdminQueries, requesterId: string, email: string, ctx: CommandContext) =>
    serialized(async () => {
      const user = await requireMemberBy(events, 'email', email);
      let otherAdmins = 0;
      if (user.userId !== requesterId && (await isAdminByStream(events, requesterId))) otherAdmins = 1;
      else {
        for (const id of await admins.adminIds()) {
          if (id !== user.userId && (await isAdminByStream(events, id))) {
            otherAdmins = 1;
            break;
          }
        }
      }
      return handleCommand(
        events,
        userStream(user.userId),
        userDecider,
        { type: 'RevokeAdmin', userId: user.userId, otherAdmins },
        ctx,
      );
    });

  return { grant, revoke };
}

export async function requestRebuild(
  events: EventStore,
  input: { requesterId: string; embedded: boolean; running: boolean },
  ctx: CommandContext,
) {
  const requesterIsAdmin = await isAdminByStream(events, input.requesterId);
  return handleCommand(
    events,
    ADMIN_OPERATIONS_STREAM,
    operationsDecider,
    {
      type: 'RequestRebuild',
      requestedBy: input.requesterId,
      requesterIsAdmin,
      embedded: input.embedded,
      running: input.running,
    },
    ctx,
  );
}
