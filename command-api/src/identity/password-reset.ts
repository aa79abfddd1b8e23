import { createHash, randomBytes } from 'node:crypto';
import type { Request } from 'express';
import {
  RESET_MESSAGES,
  invalid,
  normalize,
  resetMailText,
  userDecider,
  userStream,
  type LogPosition,
} from '@evo/domain';
import { childLogger, handleCommand, type CommandContext, type LimitRule } from '@evo/infra';
import type { AppDeps } from '../deps';
import { findMemberBy, loadMember, type Member } from './members';

const log = childLogger('password-reset');

/** the screen a link opens; the token travels in the fragment, which no server (nor Referer) sees */
export const RESET_PAGE = '/nouveau-mot-de-passe';

/** Requests for a link per email asked, known or not (so that a refusal says nothing). */
export const RESET_PER_EMAIL: LimitRule = { name: 'password-reset-email', limit: 3, windowMs: 60 * 60_000 };

/** SHA-256 of a link's secret: what the member's stream keeps */
const hashOf = (secret: string) => createHash('sha256').update(secret).digest('base64url');

/** A link's token: `<member id>.<secret>` (the id names the stream to check the secret against). */
function parseToken(token: string): { userId: string; secret: string } | undefined {
  const m = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/.exec(token.trim());
  return m ? { userId: m[1], secret: m[2] } : undefined;
}

/** Where links point: PUBLIC_URL, else the address the request came to (a Host the product serves). */
export function siteBase(deps: Pick<AppDeps, 'config'>, req: Request): string {
  return (deps.config.PUBLIC_URL ?? `${req.protocol}://${req.get('host')}`).replace(/\/+$/, '');
}

/**
 * "Mot de passe oublié ?": links issued to a member (by email, or to an administrator who hands it
 * over) and used once to set a new password. The rules (single use, expiry, a new password closing
 * older links) are the user decider's; this is the I/O around them.
 */
export class PasswordResets {
  /** requests per client address (PASSWORD_RESET_LIMIT_PER_HOUR) */
  private readonly perAddress: LimitRule;

  constructor(private readonly deps: Pick<AppDeps, 'events' | 'mailer' | 'limits' | 'config' | 'passwords'>) {
    this.perAddress = {
      name: 'password-reset-address',
      limit: deps.config.PASSWORD_RESET_LIMIT_PER_HOUR,
      windowMs: 60 * 60_000,
    };
  }

  get ttlMinutes(): number {
    return this.deps.config.PASSWORD_RESET_TTL_MINUTES;
  }

  /** A new link for `member`, recorded hashed on their stream. */
  async issue(
    member: Member,
    issuedBy: 'member' | 'admin',
    base: string,
    ctx: CommandContext,
  ): Promise<{ link: string; expiresAt: string; position: LogPosition | undefined }> {
    const secret = randomBytes(32).toString('base64url');
    const expiresAt = new Date(ctx.now.getTime() + this.ttlMinutes * 60_000).toISOString();
    const r = await handleCommand(
      this.deps.events,
      userStream(member.userId),
      userDecider,
      { type: 'IssuePasswordReset', userId: member.userId, tokenHash: hashOf(secret), expiresAt, issuedBy },
      ctx,
    );
    return { link: `${base}${RESET_PAGE}#${member.userId}.${secret}`, expiresAt, position: r.position };
  }

  /**
   * A member's request by email: counted first (known or unknown email alike), answered at once;
   * the link is issued and sent afterwards, so that the answer and its delay say nothing of the
   * email. `refusedForMs` when a limit is reached.
   */
  async request(email: string, address: string, base: string, ctx: CommandContext): Promise<{ refusedForMs?: number }> {
    const [byEmail, byAddress] = await Promise.all([
      this.deps.limits.take(RESET_PER_EMAIL, normalize(email)),
      this.deps.limits.take(this.perAddress, address),
    ]);
    if (!byEmail.taken || !byAddress.taken) {
      return {
        refusedForMs: Math.max(byEmail.taken ? 0 : byEmail.resetInMs, byAddress.taken ? 0 : byAddress.resetInMs),
      };
    }
    void this.sendLink(email, base, ctx).catch((err: unknown) =>
      log.error({ err }, 'password reset: the link could not be issued or sent'),
    );
    return {};
  }

  private async sendLink(email: string, base: string, ctx: CommandContext): Promise<void> {
    const member = await findMemberBy(this.deps.events, 'email', email);
    if (!member) return;
    const { link } = await this.issue(member, 'member', base, { ...ctx, userId: member.userId });
    await this.deps.mailer.send({
      to: member.email,
      subject: RESET_MESSAGES.mailSubject,
      text: resetMailText(member.pseudo, link, this.ttlMinutes),
    });
  }

  /** Sets `password` through the link's token; answers the member (then to be logged in). */
  async reset(
    token: string,
    password: string,
    ctx: CommandContext,
  ): Promise<{ member: Member; position: LogPosition | undefined }> {
    const parsed = parseToken(token);
    const member = parsed && (await loadMember(this.deps.events, parsed.userId));
    if (!parsed || !member) throw invalid(RESET_MESSAGES.invalid);
    const passwordHash = await this.deps.passwords.hash(password);
    const r = await handleCommand(
      this.deps.events,
      userStream(member.userId),
      userDecider,
      { type: 'ResetPassword', userId: member.userId, tokenHash: hashOf(parsed.secret), passwordHash, now: ctx.now },
      { ...ctx, userId: member.userId },
    );
    return { member, position: r.position };
  }
}
