import { Router, type Request, type Response } from 'express';
import type {
  AccountDeletedAnswer,
  MeAnswer,
  PasswordResetDoneAnswer,
  PasswordResetNotLoggedInAnswer,
  ProfileEditedAnswer,
  PasswordResetRequestedAnswer,
  ProfileAnswer,
  PublicUser,
  RegisteredAnswer,
  SessionUser,
} from '@evo/contracts';
import { z } from 'zod';
import {
  DELETION_MESSAGES,
  DeleteAccountBody,
  LoginBody,
  MESSAGES,
  PasswordResetBody,
  PasswordResetRequestBody,
  ProfileEditBody,
  userDecider,
  userStream,
  RESET_MESSAGES,
  RegisterBody,
  normalize,
} from '@evo/domain';
import { PROFILE_PAGE, identityQueries } from '@evo/projections';
import type { AppDeps } from '../deps';
import { DISK_FULL_RETRY_AFTER_SECONDS, HttpError, route } from '../http/errors';
import { currentUserId, requireAuth } from '../http/session';
import { POSITION_HEADER, answerWrite } from '../http/read-your-writes';
import { enqueueVideoProcessing } from '../videos/processing';
import { videoFilePath } from '../videos/video-files';
import { LoginThrottle } from './login-throttle';
import { setRetryAfter } from '../http/member-limits';
import { childLogger, handleCommand, isDiskFull, type LimitRule } from '@evo/infra';
import { contextOf } from '../http/context';
import { UPLOAD_MESSAGES, firstFile } from '../uploads/upload-store';
import { recordLogin, registerUser } from './commands';
import { findMemberBy, sessionMember } from './members';
import { foundUser, sessionUser } from '../http/actor';
import { parseInput } from '../http/request';
import { pageQuery } from '../http/page-query';
import { PasswordResets, siteBase } from './password-reset';
import { deleteAccount } from './account-deletion';

export const AUTH_ROUTE_MESSAGES = {
  tooManyAttempts: 'Trop de tentatives de connexion. Réessaie dans quelques minutes.',
  tooManyRegistrations: "Trop d'inscriptions depuis cette adresse. Réessaie plus tard.",
  logoutNotRecorded:
    "Espace disque insuffisant sur le serveur : la déconnexion n'a pas pu être enregistrée, tu es toujours connecté(e). Réessaie plus tard.",
  registered: '✅ Compte créé avec succès ! Vous pouvez vous connecter.',
  userNotFound: 'Utilisateur introuvable.',
} as const;

const PseudoParam = z.object({
  pseudo: z.string().trim().min(1, AUTH_ROUTE_MESSAGES.userNotFound).max(100, AUTH_ROUTE_MESSAGES.userNotFound),
});

/** ?page= and ?limit= of a profile's videos (bounded like the other paged lists: each page costs the ones before) */
const ProfilePageQuery = pageQuery({ ...PROFILE_PAGE, maxPage: 200 });

const log = childLogger('identity');

export function identityRouter(deps: AppDeps): Router {
  const { events, ids, read, sessions, uploads, jobs } = deps;
  const queries = identityQueries(read);
  const logins = new LoginThrottle(deps.limits);
  const resets = new PasswordResets(deps);
  // every registration attempt counts, refused before its files are read
  const registrations: LimitRule = {
    name: 'register-address',
    limit: deps.config.REGISTER_LIMIT_PER_HOUR,
    windowMs: 60 * 60_000,
  };
  /**
   * A new session for this browser, then the login in the log: a login recorded always opened a
   * session, and a login refused (a full disk) leaves the browser's session as it was.
   */
  const openRecordedSession = (req: Request, res: Response, userId: string) =>
    sessions.start(req, res, userId, () => recordLogin(events, userId, contextOf(req, userId)));

  const r = Router();

  r.post(
    '/auth/register',
    (req, res, next) => {
      deps.limits
        .take(registrations, req.ip ?? 'unknown')
        .then((t) => {
          if (t.taken) return next();
          setRetryAfter(res, t.resetInMs);
          next(new HttpError(429, AUTH_ROUTE_MESSAGES.tooManyRegistrations));
        })
        .catch(next);
    },
    uploads.multipart([
      { name: 'profilePic', maxCount: 1, as: 'image', folder: 'profile_pics' },
      { name: 'video', maxCount: 1, as: 'video', folder: 'videos' },
    ]),
    route(async (req, res) => {
      const body = parseInput(RegisterBody, req.body);
      const pic = firstFile(req, 'profilePic');
      const video = firstFile(req, 'video');
      if (!pic) throw new HttpError(400, UPLOAD_MESSAGES.pictureRequired);
      if (!video) throw new HttpError(400, UPLOAD_MESSAGES.videoRequired);
      const keptPic = await uploads.keep(pic, 'image', 'profile_pics');
      let keptVideo;
      try {
        keptVideo = await uploads.keep(video, 'video', 'videos');
      } catch (e) {
        await uploads.remove('profile_pics', keptPic.name);
        throw e;
      }
      let result;
      try {
        result = await registerUser(
          events,
          {
            email: body.email,
            pseudo: body.pseudo,
            passwordHash: await deps.passwords.hash(body.password),
            bio: body.bio,
            profilePicture: keptPic.name,
          },
          {
            ids,
            video: {
              title: body.video_title,
              description: '',
              filePath: videoFilePath(keptVideo.name),
              mimeType: keptVideo.kind.mime,
              sizeBytes: video.size,
            },
          },
          contextOf(req),
        );
      } catch (e) {
        await uploads.remove('profile_pics', keptPic.name);
        await uploads.remove('videos', keptVideo.name);
        throw e;
      }
      if (result.position !== undefined) res.setHeader(POSITION_HEADER, result.position.toString());
      await enqueueVideoProcessing(jobs, result.videoId, videoFilePath(keptVideo.name));
      res.status(201).json({
        message: AUTH_ROUTE_MESSAGES.registered,
        email: body.email,
        pseudo: body.pseudo,
      } satisfies RegisteredAnswer);
    }),
  );

  r.post(
    '/auth/login',
    route(async (req, res) => {
      const body = parseInput(LoginBody, req.body);
      const attempt = await logins.begin(req.ip ?? 'unknown', normalize(body.email));
      if ('refusedForMs' in attempt) {
        setRetryAfter(res, attempt.refusedForMs);
        throw new HttpError(429, AUTH_ROUTE_MESSAGES.tooManyAttempts);
      }
      let user: Awaited<ReturnType<typeof findMemberBy>>;
      let ok = false;
      try {
        user = await findMemberBy(events, 'email', body.email);
        ok = await deps.passwords.verify(user?.passwordHash, body.password);
      } catch (e) {
        await logins.abandoned(attempt);
        throw e;
      }
      if (!user || !ok) throw new HttpError(401, MESSAGES.badCredentials);
      await logins.succeeded(attempt);
      const login = await openRecordedSession(req, res, user.userId);
      await answerWrite(sessions, req, res, login.position);
      const isAdmin = user.role === 'admin';
      res.json({
        email: user.email,
        pseudo: user.pseudo,
        profile_picture: user.profilePicture,
        role: user.role,
        is_admin: isAdmin,
      } satisfies SessionUser);
    }),
  );

  /**
   * "Mot de passe oublié ?": one answer (202) whatever the email, counted per email and per
   * address (429 beyond); the link goes by email (SMTP_URL) or to the server log.
   */
  r.post(
    '/auth/password-reset',
    route(async (req, res) => {
      const { email } = parseInput(PasswordResetRequestBody, req.body);
      const asked = await resets.request(email, req.ip ?? 'unknown', siteBase(deps, req), contextOf(req));
      if (asked.refusedForMs !== undefined) {
        setRetryAfter(res, asked.refusedForMs);
        throw new HttpError(429, RESET_MESSAGES.tooMany);
      }
      res
        .status(202)
        .json({ message: RESET_MESSAGES.requested(resets.ttlMinutes) } satisfies PasswordResetRequestedAnswer);
    }),
  );

  /**
   * A link used: the new password (same rule as at registration) is set, the link serves no more,
   * the member's other sessions end, their failed logins are forgotten, and this browser is logged in.
   */
  r.post(
    '/auth/password-reset/confirm',
    route(async (req, res) => {
      const { token, password } = parseInput(PasswordResetBody, req.body);
      const { member } = await resets.reset(token, password, contextOf(req));
      let login: Awaited<ReturnType<typeof openRecordedSession>>;
      try {
        // the member's sessions end first: one an intruder holds ends even if this browser's cannot open
        await sessions.endAllOf(member.userId);
        await logins.clearAccount(normalize(member.email));
        login = await openRecordedSession(req, res, member.userId);
      } catch (e) {
        // the new password stands: the member is told so, never "nothing was saved"
        log.warn({ err: e, userId: member.userId }, 'mot de passe modifié, session non ouverte');
        res.status(503).json({
          error: RESET_MESSAGES.doneNotLoggedIn,
          password_changed: true,
          email: member.email,
        } satisfies PasswordResetNotLoggedInAnswer);
        return;
      }
      await answerWrite(sessions, req, res, login.position);
      res.json({
        message: RESET_MESSAGES.done,
        email: member.email,
        pseudo: member.pseudo,
        profile_picture: member.profilePicture,
        role: member.role,
        is_admin: member.role === 'admin',
      } satisfies PasswordResetDoneAnswer);
    }),
  );

  /**
   * Ends the session: removed from the store, then the cookie cleared. When the store cannot write
   * (a full disk), the session is left as it was and the answer says so: never a logout answered
   * as failed whose session goes on working unknown to the member.
   */
  r.post(
    '/auth/logout',
    route(async (req, res) => {
      try {
        await sessions.destroy(req, res);
      } catch (e) {
        if (!isDiskFull(e)) throw e;
        res.setHeader('Retry-After', String(DISK_FULL_RETRY_AFTER_SECONDS));
        throw new HttpError(503, AUTH_ROUTE_MESSAGES.logoutNotRecorded);
      }
      res.status(204).end();
    }),
  );

  r.get(
    '/auth/me',
    requireAuth,
    route(async (req, res) => {
      const user = await sessionUser(req, queries);
      res.json({
        email: user.email,
        pseudo: user.pseudo,
        profile_picture: user.profile_picture,
        bio: user.bio,
        role: user.role,
        is_admin: user.is_admin,
        admin_email: deps.config.ADMIN_EMAIL,
      } satisfies MeAnswer);
    }),
  );

  /**
   * "Modifier le profil": a new picture (an image file, `profilePic`) and/or bio, as
   * `ProfileUpdated` on the member's own stream; the pseudo stays (every link names it).
   */
  r.put(
    '/users/me/profile',
    requireAuth,
    uploads.multipart([{ name: 'profilePic', maxCount: 1, as: 'image', folder: 'profile_pics' }]),
    route(async (req, res) => {
      const body = parseInput(ProfileEditBody, req.body);
      const member = await sessionMember(events, currentUserId(req));
      const pic = firstFile(req, 'profilePic');
      const kept = pic ? await uploads.keep(pic, 'image', 'profile_pics') : undefined;
      let result;
      try {
        result = await handleCommand(
          events,
          userStream(member.userId),
          userDecider,
          (state) => ({
            type: 'UpdateProfile' as const,
            userId: member.userId,
            bio: body.bio ?? (state.status === 'registered' ? state.bio : member.bio),
            profilePicture:
              kept?.name ?? (state.status === 'registered' ? state.profilePicture : member.profilePicture),
          }),
          contextOf(req),
        );
      } catch (e) {
        if (kept) await uploads.remove('profile_pics', kept.name);
        throw e;
      }
      await answerWrite(sessions, req, res, result.position);
      const now = result.state.status === 'registered' ? result.state : member;
      res.json({
        message: result.events.length > 0 ? MESSAGES.profileSaved : MESSAGES.profileUnchanged,
        email: now.email,
        pseudo: now.pseudo,
        bio: now.bio,
        profile_picture: now.profilePicture,
        role: now.role,
        is_admin: now.role === 'admin',
      } satisfies ProfileEditedAnswer);
    }),
  );

  /**
   * "Supprimer mon compte": the password typed again; the account is deleted, every session of the
   * member ends (their sockets are disconnected) and this browser is logged out.
   */
  r.delete(
    '/users/me',
    requireAuth,
    route(async (req, res) => {
      const { password } = parseInput(DeleteAccountBody, req.body);
      const userId = currentUserId(req);
      await deleteAccount(deps, userId, password, contextOf(req), res);
      await sessions.destroy(req, res);
      await sessions.endAllOf(userId);
      res.json({ message: DELETION_MESSAGES.deleted } satisfies AccountDeletedAnswer);
    }),
  );

  r.get(
    '/users/by-pseudo/:pseudo',
    requireAuth,
    route(async (req, res) => {
      const { pseudo } = parseInput(PseudoParam, req.params);
      const user = foundUser(await queries.userByPseudo(pseudo));
      res.json({
        email: user.email,
        pseudo: user.pseudo,
        bio: user.bio,
        profile_picture: user.profile_picture,
      } satisfies PublicUser);
    }),
  );

  r.get(
    '/users/profile/:pseudo',
    requireAuth,
    route(async (req, res) => {
      const { pseudo } = parseInput(PseudoParam, req.params);
      const { page, limit } = parseInput(ProfilePageQuery, req.query);
      const viewer = await queries.userById(currentUserId(req));
      const profile = await queries.profile(pseudo, currentUserId(req), {
        viewerIsAdmin: viewer?.is_admin === true,
        page,
        limit,
      });
      if (!profile) throw new HttpError(404, AUTH_ROUTE_MESSAGES.userNotFound);
      res.json(profile satisfies ProfileAnswer);
    }),
  );

  return r;
}
