import {
  ConfigError,
  DEMO_ADMIN_EMAIL,
  PUBLISHED_PASSWORDS,
  type CommandContext,
  type Config,
  type EventStore,
} from '@evo/infra';
import { normalize } from '@evo/domain';
import { findMemberBy, type Member } from '../identity/members';
import { applyPassword, type PasswordHasher } from '../identity/commands';
import { DEMO_MEMBERS } from './demo-data';

/**
 * The accounts README.md gives a password to: the demo members, and the demo administrator when
 * ADMIN_EMAIL names another (an earlier start on this machine created it). The administrator of
 * ADMIN_EMAIL is ADMIN_PASSWORD's business (ensureAdmin).
 */
export function demoAccountEmails(config: Pick<Config, 'ADMIN_EMAIL'>): string[] {
  const emails: string[] = DEMO_MEMBERS.map((m) => m.email);
  if (normalize(config.ADMIN_EMAIL) !== normalize(DEMO_ADMIN_EMAIL)) emails.unshift(DEMO_ADMIN_EMAIL);
  return emails;
}

async function hasPublishedPassword(member: Member, passwords: PasswordHasher): Promise<boolean> {
  for (const published of PUBLISHED_PASSWORDS) if (await passwords.verify(member.passwordHash, published)) return true;
  return false;
}

/**
 * Before EVO opens: no demo account keeps a password published in README.md where other machines
 * reach it. With DEMO_PASSWORD, every existing demo account whose password differs gets it
 * (`PasswordChanged`, actor "system"; the demo members seeded afterwards get it too). Without it,
 * off loopback, the start is refused naming the accounts that still have a published password, or
 * that the demo seed would create with one; on this machine only, nothing is checked. Answers the
 * accounts whose password it changed.
 */
export async function secureDemoAccounts(
  events: EventStore,
  config: Pick<Config, 'ADMIN_EMAIL' | 'DEMO_PASSWORD' | 'HOST' | 'openToNetwork'>,
  options: { seeds: boolean; passwords: PasswordHasher; ctx: () => CommandContext },
): Promise<string[]> {
  if (!config.DEMO_PASSWORD && !config.openToNetwork) return [];
  const changed: string[] = [];
  const exposed: string[] = [];
  let missing = 0;
  for (const email of demoAccountEmails(config)) {
    const member = await findMemberBy(events, 'email', email);
    if (!member) {
      // the seed creates the demo members it does not find, with the published password unless told another
      if (options.seeds && DEMO_MEMBERS.some((m) => m.email === email)) {
        missing++;
        if (!config.DEMO_PASSWORD) exposed.push(email);
      }
      continue;
    }
    if (config.DEMO_PASSWORD) {
      if (await applyPassword(events, member, config.DEMO_PASSWORD, options.passwords, options.ctx()))
        changed.push(email);
    } else if (await hasPublishedPassword(member, options.passwords)) exposed.push(email);
  }
  if (exposed.length > 0)
    throw new ConfigError(
      'DEMO_PASSWORD',
      `est obligatoire quand HOST (${config.HOST}) n'est pas une adresse de bouclage : ces comptes de démonstration ont un mot de passe publié dans README.md : ${exposed.join(', ')}. Donnez-leur un mot de passe avec DEMO_PASSWORD=… (au moins 8 caractères), appliqué au démarrage${missing === exposed.length ? ', ou démarrez sans les créer avec DEMO_DATA=false' : ''}.`,
    );
  return changed;
}
