import { Router } from 'express';
import { z, type ZodTypeAny } from 'zod';
import type {
  ActiveRestrictionsAnswer,
  AppealsQueueAnswer,
  MyModerationAnswer,
  RestrictionCreatedAnswer,
} from '@evo/contracts';
import { APPEAL_MESSAGES, RESTRICTION_MESSAGES, emailField } from '@evo/domain';
import { decisionQueries } from '@evo/projections';
import type { CommandContext } from '@evo/infra';
import type { AppDeps } from '../deps';
import { route } from '../http/errors';
import { currentUserId, requireAuth } from '../http/session';
import { answerMessage, answerWrite } from '../http/read-your-writes';
import { contextOf } from '../http/context';
import { bodyOf, parseInput } from '../http/request';
import { requireAdmin } from '../admin/require-admin';
import { answerAppeal, appealDecision, liftRestriction, restrictMember } from './decision-commands';

/** any text field: what is not a string counts as empty (the deciders name what is missing) */
const text = z.unknown().transform((v) => (typeof v === 'string' ? v : ''));
const AppealBody = z.object({ text });
const AnswerBody = z.object({ outcome: text, answer: text });
const RestrictBody = z.object({
  email: emailField,
  scopes: z
    .union([z.array(z.string()), z.string().transform((s) => [s])], {
      invalid_type_error: RESTRICTION_MESSAGES.noScope,
      required_error: RESTRICTION_MESSAGES.noScope,
    })
    .default([]),
  duration_hours: z
    .union([z.number(), z.string().trim().min(1).pipe(z.coerce.number())], {
      invalid_type_error: RESTRICTION_MESSAGES.negativeDuration,
    })
    .nullish(),
  ends_at: z.string({ invalid_type_error: RESTRICTION_MESSAGES.badEnd }).nullish(),
  reason: text,
});
const DecisionIdParam = z.object({ id: z.string() });
/** a command that reads nothing from the body (any body is ignored) */
const NoBody = z.object({});

export const DECISION_ROUTE_MESSAGES = { appealSent: APPEAL_MESSAGES.appealSent } as const;

/**
 * Decisions, appeals and restrictions (issue 32). Members: their decisions and restrictions, and
 * "Contester la décision". Administrators: the appeals queue (oldest first) and its answers, the
 * restrictions holding now, restricting and lifting.
 */
export function decisionsRouter(deps: AppDeps): Router {
  const admin = requireAdmin(deps);
  const decisions = decisionQueries(deps.read);
  const r = Router();

  /**
   * A command on the decision the path names (`:id`) by the session member: the body parsed with
   * `schema`, then `run`; answered with the position it wrote and `message`, in French.
   */
  const decisionCommand = <S extends ZodTypeAny>(
    schema: S,
    run: (id: string, body: z.output<S>, by: string, ctx: CommandContext) => Promise<{ position?: bigint }>,
    message: (body: z.output<S>) => string,
    status = 200,
  ) =>
    route(async (req, res) => {
      const { id } = parseInput(DecisionIdParam, req.params);
      const body = parseInput(schema, bodyOf(req));
      const result = await run(id, body, currentUserId(req), contextOf(req));
      await answerMessage(deps.sessions, req, res, result.position, message(body), status);
    });

  r.get(
    '/moderation/mine',
    requireAuth,
    route(async (req, res) => {
      res.json((await decisions.mine(currentUserId(req), new Date())) satisfies MyModerationAnswer);
    }),
  );

  /** { text } → 201 */
  r.post(
    '/moderation/decisions/:id/appeal',
    requireAuth,
    decisionCommand(
      AppealBody,
      (id, body, by, ctx) => appealDecision(deps.events, by, id, body.text, ctx),
      () => APPEAL_MESSAGES.appealSent,
      201,
    ),
  );

  r.get(
    '/admin/appeals',
    ...admin,
    route(async (_req, res) => {
      res.json({ appeals: await decisions.appealsQueue(new Date()) } satisfies AppealsQueueAnswer);
    }),
  );

  /** { outcome: maintenue | annulée, answer } */
  r.put(
    '/admin/appeals/:id',
    ...admin,
    decisionCommand(
      AnswerBody,
      (id, body, by, ctx) => answerAppeal(deps.events, by, id, body, ctx),
      (body) => APPEAL_MESSAGES.answered(body.outcome === 'annulée' ? 'annulée' : 'maintenue'),
    ),
  );

  r.get(
    '/admin/restrictions',
    ...admin,
    route(async (_req, res) => {
      res.json({ restrictions: await decisions.activeRestrictions(new Date()) } satisfies ActiveRestrictionsAnswer);
    }),
  );

  /** { email, scopes: [upload|comment|message], duration_hours? | ends_at? (neither: until lifted), reason } → 201 */
  r.post(
    '/admin/restrictions',
    ...admin,
    route(async (req, res) => {
      const body = parseInput(RestrictBody, bodyOf(req));
      const result = await restrictMember(
        deps.events,
        currentUserId(req),
        {
          email: body.email,
          scopes: body.scopes,
          durationHours: body.duration_hours,
          endsAt: body.ends_at,
          reason: body.reason,
        },
        contextOf(req),
      );
      await answerWrite(deps.sessions, req, res, result.position);
      res
        .status(201)
        .json({ message: RESTRICTION_MESSAGES.restricted, id: result.id } satisfies RestrictionCreatedAnswer);
    }),
  );

  r.delete(
    '/admin/restrictions/:id',
    ...admin,
    decisionCommand(
      NoBody,
      (id, _body, by, ctx) => liftRestriction(deps.events, by, id, ctx),
      () => RESTRICTION_MESSAGES.lifted,
    ),
  );

  return r;
}
