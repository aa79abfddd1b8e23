import { Router } from 'express';
import type { IsFollowingAnswer, MessageAnswer } from '@evo/contracts';
import { z } from 'zod';
import { socialQueries } from '@evo/projections';
import type { AppDeps } from '../deps';
import { HttpError, route } from '../http/errors';
import { requireAuth } from '../http/session';
import { answerWrite } from '../http/read-your-writes';
import { contextOf } from '../http/context';
import { setFollowing } from './commands';
import { requireMemberBy } from '../identity/members';
import { actingMember, readableMember, sessionUser } from '../http/actor';
import { SOCIAL_ROUTE_MESSAGES as M, actorEmailField, emailValue, pageOf } from './http';
import { bodyOf, parseInput } from '../http/request';

/** POST /follows/follow (follow back from a notification) */
const FollowByEmailBody = z.object({
  follower_email: actorEmailField,
  following_email: emailValue(M.targetEmailRequired),
});
/** POST /users/follows/follow and POST /follows/unfollow */
const FollowByPseudoBody = z.object({
  followerEmail: actorEmailField,
  followingPseudo: emailValue(M.targetPseudoRequired),
});
const EmailParam = z.object({ email: emailValue() });
const IsFollowingByPseudoParams = z.object({ followerEmail: emailValue(), pseudo: emailValue(M.targetPseudoRequired) });
const IsFollowingByEmailParams = z.object({ email: emailValue(), targetEmail: emailValue() });

/**
 * Follows and users (the product API calls, "Follows and users"). The follower is always the session
 * user: an email in the body saying otherwise is refused (403), never obeyed.
 */
export function socialRouter(deps: AppDeps): Router {
  const { events, read, sessions } = deps;
  const q = socialQueries(read);
  const r = Router();

  r.post(
    '/follows/follow',
    requireAuth,
    route(async (req, res) => {
      const body = parseInput(FollowByEmailBody, bodyOf(req));
      const me = await actingMember(req, events, body.follower_email);
      const target = await requireMemberBy(events, 'email', body.following_email);
      const result = await setFollowing(events, me.userId, target.userId, true, contextOf(req));
      await answerWrite(sessions, req, res, result.position);
      res.json({ message: M.followed(target.pseudo) } satisfies MessageAnswer);
    }),
  );

  r.post(
    '/users/follows/follow',
    requireAuth,
    route(async (req, res) => {
      const body = parseInput(FollowByPseudoBody, bodyOf(req));
      const me = await actingMember(req, events, body.followerEmail);
      const target = await requireMemberBy(events, 'pseudo', body.followingPseudo);
      const result = await setFollowing(events, me.userId, target.userId, true, contextOf(req));
      await answerWrite(sessions, req, res, result.position);
      res.json({ message: M.followed(target.pseudo) } satisfies MessageAnswer);
    }),
  );

  /** not following: 200 and nothing appended (the friends list reloads either way) */
  r.post(
    '/follows/unfollow',
    requireAuth,
    route(async (req, res) => {
      const body = parseInput(FollowByPseudoBody, bodyOf(req));
      const me = await actingMember(req, events, body.followerEmail);
      const target = await requireMemberBy(events, 'pseudo', body.followingPseudo);
      const result = await setFollowing(events, me.userId, target.userId, false, contextOf(req));
      await answerWrite(sessions, req, res, result.position);
      res.json({ message: M.unfollowed(target.pseudo) } satisfies MessageAnswer);
    }),
  );

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
      const subject = await q.userByEmail(email);
      if (!subject) throw new HttpError(404, M.userNotFound);
      res.json(await q.stats(subject._id));
    }),
  );

  r.get(
    '/users/follows/is-following/:followerEmail/:pseudo',
    requireAuth,
    route(async (req, res) => {
      const { followerEmail, pseudo } = parseInput(IsFollowingByPseudoParams, req.params);
      const subject = await readableMember(req, q, followerEmail, M.forbidden);
      const target = await q.userByPseudo(pseudo);
      if (!target) throw new HttpError(404, M.userNotFound);
      res.json({ isFollowing: await q.isFollowing(subject._id, target._id) } satisfies IsFollowingAnswer);
    }),
  );

  r.get(
    '/users/is-following/:email/:targetEmail',
    requireAuth,
    route(async (req, res) => {
      const { email, targetEmail } = parseInput(IsFollowingByEmailParams, req.params);
      const subject = await readableMember(req, q, email, M.forbidden);
      const target = await q.userByEmail(targetEmail);
      if (!target) throw new HttpError(404, M.userNotFound);
      res.json({ isFollowing: await q.isFollowing(subject._id, target._id) } satisfies IsFollowingAnswer);
    }),
  );

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
