import { z } from 'zod/v4';
import type { DomainEvent } from '../shared/decider';

export const UserRegisteredSchema = z.object({
  userId: z.string().min(1),
  email: z.string().email(),
  pseudo: z.string().min(1),
  passwordHash: z.string().min(1),
  bio: z.string(),
  profilePicture: z.string().min(1),
});
export const UserLoggedInSchema = z.object({ userId: z.string().min(1) });
export const AdminRoleGrantedSchema = z.object({ userId: z.string().min(1) });
export const AdminRoleRevokedSchema = z.object({ userId: z.string().min(1) });
/** A new password for a member (the operator's ADMIN_PASSWORD or DEMO_PASSWORD applied at start). */
export const PasswordChangedSchema = z.object({ userId: z.string().min(1), passwordHash: z.string().min(1) });
/** An administrator cleared the member's failed logins (the login limits' counters live outside the log). */
export const LoginLockClearedSchema = z.object({ userId: z.string().min(1), failures: z.number().int().nonnegative() });

/**
 * A password reset link was issued (asked by the member for their email, or by an administrator).
 * Only a SHA-256 of the link's secret is kept: the log never holds a usable link.
 */
export const PasswordResetIssuedSchema = z.object({
  userId: z.string().min(1),
  tokenHash: z.string().min(1),
  /** ISO time after which the link is refused */
  expiresAt: z.string(),
  issuedBy: z.enum(['member', 'admin']),
});
/** A reset link was used (followed by the PasswordChanged it allowed, in the same append). */
export const PasswordResetUsedSchema = z.object({ userId: z.string().min(1), tokenHash: z.string().min(1) });
/** The member changed their picture or bio (the pseudo stays: every link and mention names it). */
export const ProfileUpdatedSchema = z.object({
  userId: z.string().min(1),
  bio: z.string(),
  profilePicture: z.string().min(1),
});

/**
 * The member deleted their account (password asked again). Carries no personal data: the member is
 * only their id. From it every read model forgets them; the erasure process then removes their
 * files and destroys their key (account-deletion.ts).
 */
export const AccountDeletedSchema = z.object({ userId: z.string().min(1) });
/** The erasure of a deleted member is complete: files removed, key destroyed (`files`: how many removed). */
export const MemberErasedSchema = z.object({ userId: z.string().min(1), files: z.number().int().nonnegative() });

export type UserRegistered = DomainEvent<'UserRegistered', z.infer<typeof UserRegisteredSchema>>;
export type UserLoggedIn = DomainEvent<'UserLoggedIn', z.infer<typeof UserLoggedInSchema>>;
export type AdminRoleGranted = DomainEvent<'AdminRoleGranted', z.infer<typeof AdminRoleGrantedSchema>>;
export type AdminRoleRevoked = DomainEvent<'AdminRoleRevoked', z.infer<typeof AdminRoleRevokedSchema>>;
export type PasswordChanged = DomainEvent<'PasswordChanged', z.infer<typeof PasswordChangedSchema>>;
export type LoginLockCleared = DomainEvent<'LoginLockCleared', z.infer<typeof LoginLockClearedSchema>>;
export type PasswordResetIssued = DomainEvent<'PasswordResetIssued', z.infer<typeof PasswordResetIssuedSchema>>;
export type PasswordResetUsed = DomainEvent<'PasswordResetUsed', z.infer<typeof PasswordResetUsedSchema>>;
export type ProfileUpdated = DomainEvent<'ProfileUpdated', z.infer<typeof ProfileUpdatedSchema>>;
export type AccountDeleted = DomainEvent<'AccountDeleted', z.infer<typeof AccountDeletedSchema>>;
export type MemberErased = DomainEvent<'MemberErased', z.infer<typeof MemberErasedSchema>>;
export type UserEvent =
  | UserRegistered
  | AccountDeleted
  | MemberErased
  | UserLoggedIn
  | AdminRoleGranted
  | AdminRoleRevoked
  | PasswordChanged
  | LoginLockCleared
  | PasswordResetIssued
  | PasswordResetUsed
  | ProfileUpdated;

/** Uniqueness claims on an email or a pseudo, one stream per normalised value. */
export const ValueReservedSchema = z.object({
  kind: z.enum(['email', 'pseudo', 'pseudoSkeleton']),
  value: z.string().min(1),
  userId: z.string().min(1),
  /** ISO time of the claim, to recognise abandoned claims */
  reservedAt: z.string(),
});
export const ValueReleasedSchema = ValueReservedSchema.omit({ reservedAt: true });
export type ValueReserved = DomainEvent<'ValueReserved', z.infer<typeof ValueReservedSchema>>;
export type ValueReleased = DomainEvent<'ValueReleased', z.infer<typeof ValueReleasedSchema>>;
export type ReservationEvent = ValueReserved | ValueReleased;

export const identityEventSchemas = {
  UserRegistered: UserRegisteredSchema,
  UserLoggedIn: UserLoggedInSchema,
  AdminRoleGranted: AdminRoleGrantedSchema,
  AdminRoleRevoked: AdminRoleRevokedSchema,
  PasswordChanged: PasswordChangedSchema,
  LoginLockCleared: LoginLockClearedSchema,
  PasswordResetIssued: PasswordResetIssuedSchema,
  PasswordResetUsed: PasswordResetUsedSchema,
  ProfileUpdated: ProfileUpdatedSchema,
  AccountDeleted: AccountDeletedSchema,
  MemberErased: MemberErasedSchema,
  ValueReserved: ValueReservedSchema,
  ValueReleased: ValueReleasedSchema,
} as const;
