import { Router } from 'express';
import type { IsFollowingAnswer } from '@evo/contracts';
import { z } from 'zod';
import { socialQueries } from '@evo/projections';
import type { AppDeps } from '../deps';
import { route } from '../http/errors';
import { requireAuth } from '../http/session';
import { answerMessage } from '../http/read-your-writes';
import { contextOf } from '../http/context';
import { setFollowing } from './commands';
import { requireMemberBy } from '../identity/members';
import { actingMember, foundUser, readableMember, sessionUser } from '../http/actor';
import { SOCIAL_ROUTE_MESSAGES as M, actorEmailField, emailValue, pageOf } from './http';
import { bodyOf, parseInput } from '../http/request';

/** What a follow or unfollow body names: who follows (a body email; the session member's if given), and whom. */
interface FollowNames {
  follower?: string;
  target: readonly ['email' | 'pseudo', string];
}
/** POST /follows/follow (follow back from a notification) */
const FollowByEmailBody = z
  .object({
    follower_email: actorEmailField,
    following_email: emailValue(M.targetEmailRequired),
  })
  .transform((b): FollowNames => ({ follower: b.follower_email, target: ['email', b.following_email] }));
/** POST /users/follows/follow and POST /follows/unfollow */
const FollowByPseudoBody = z
  .object({
    followerEmail: actorEmailField,
    followingPseudo: emailValue(M.targetPseudoRequired),
  })
  .transform((b): FollowNames => ({ follower: b.followerEmail, target: ['pseudo', b.followingPseudo] }));
const EmailParam = z.object({ email: emailValue() });
/** What an is-following path names: whose follows (an email), and whom (by email or pseudo). */
interface IsFollowingNames {
  subject: string;
  target: readonly ['email' | 'pseudo', string];
}
/** GET /users/follows/is-following/:followerEmail/:pseudo */
const IsFollowingByPseudoParams = z
  .object({ followerEmail: emailValue(), pseudo: emailValue(M.targetPseudoRequired) })
  .transform((p): IsFollowingNames => ({ subject: p.followerEmail, target: ['pseudo', p.pseudo] }));
/** GET /users/is-following/:email/:targetEmail */
const IsFollowingByEmailParams = z
  .object({ email: emailValue(), targetEmail: emailValue() })
  .transform((p): IsFollowingNames => ({ subject: p.email, target: ['email', p.targetEmail] }));

/**
 * Follows and users (the product API calls, "Follows and users"). The follower is always the session
 * user: an email in the body saying otherwise is refused (403), never obeyed.
 */
export function socialRouter(deps: AppDeps): Router {
  const { events, read, sessions } = deps;
  const q = socialQueries(read);
  const r = Router();

  /**
   * The session member (whom `follower` must name when given) follows or unfollows the member the
   * body names; the answer names them by pseudo.
   */
  const followRoute = (schema: z.ZodType<FollowNames, z.ZodTypeDef, unknown>, follow: boolean) =>
    route(async (req, res) => {
      const {
        follower,
        target: [by, value],
      } = parseInput(schema, bodyOf(req));
      const me = await actingMember(req, events, follower);
      const target = await requireMemberBy(events, by, value);
      const result = await setFollowing(events, me.userId, target.userId, follow, contextOf(req));
      await answerMessage(sessions, req, res, result.position, (follow ? M.followed : M.unfollowed)(target.pseudo));
    });

  r.post('/follows/follow', requireAuth, followRoute(FollowByEmailBody, true));
  r.post('/users/follows/follow', requireAuth, followRoute(FollowByPseudoBody, true));
  /** not following: 200 and nothing appended (the friends list reloads either way) */
  r.post('/follows/unfollow', requireAuth, followRoute(FollowByPseudoBody, false));

  /** suggestions: `currentEmail` is not needed (identity comes from the session) and is ignored */
  r.get(
    '/users/with-videos',
    requireAuth,
    route(async (req, res) => {
      const page = pageOf(req);
      const me = await sessionUser(req, q);
      res.json(await q.suggestions(me._id, page));
    }),
  );

  /** counts only (no names): shown on every public profile (the product specification: Suivis, Abonnés, Goûts) */
  r.get(
    '/users/stats/:email',
    requireAuth,
    route(async (req, res) => {
      const { email } = parseInput(EmailParam, req.params);
      const subject = foundUser(await q.userByEmail(email));
      res.json(await q.stats(subject._id));
    }),
  );

  /**
   * Whether the member the path names first (themselves, or anyone for an administrator) follows
   * the member it names next: 403 for someone else's, 404 when either is unknown.
   */
  const isFollowingRoute = (schema: z.ZodType<IsFollowingNames, z.ZodTypeDef, unknown>) =>
    route(async (req, res) => {
      const {
        subject: subjectEmail,
        target: [by, value],
      } = parseInput(schema, req.params);
      const subject = await readableMember(req, q, subjectEmail, M.forbidden);
      const target = foundUser(await (by === 'pseudo' ? q.userByPseudo(value) : q.userByEmail(value)));
      res.json({ isFollowing: await q.isFollowing(subject._id, target._id) } satisfies IsFollowingAnswer);
    });

  r.get('/users/follows/is-following/:followerEmail/:pseudo', requireAuth, isFollowingRoute(IsFollowingByPseudoParams));
  r.get('/users/is-following/:email/:targetEmail', requireAuth, isFollowingRoute(IsFollowingByEmailParams));

  r.get(
    '/users/friends/:email',
    requireAuth,
    route(async (req, res) => {
      const { email } = parseInput(EmailParam, req.params);
      const subject = await readableMember(req, q, email, M.forbidden);
      res.json(await q.friends(subject._id));
    }),
  );

  /** visible videos of the members I follow, newest first: `?page=`, `?limit=` (20, at most 50) */
  r.get(
    '/videos/friends-feed/:email',
    requireAuth,
    route(async (req, res) => {
      const { email } = parseInput(EmailParam, req.params);
      const page = pageOf(req);
      const subject = await readableMember(req, q, email, M.forbidden);
      res.json(await q.friendsFeed(subject._id, page));
    }),
  );

  return r;
}
