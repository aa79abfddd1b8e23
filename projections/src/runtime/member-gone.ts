import type { RecordedAppEvent } from '@evo/domain';

/*
 * A deleted member leaves every read model (issue 31). Each projector forgets them in its own
 * collections on `AccountDeleted`, and again on `MemberErased`: a write of theirs that raced with
 * the deletion (a comment posted from another tab, decided before `AccountDeleted` and appended
 * after it) is projected in between, and the erasure's event takes it out too. Both passes are
 * idempotent: they remove what is left and adjust other members' counters by what they remove,
 * each counter with the projector's position guard.
 */

/** The events at which a projector forgets a member. */
export const MEMBER_GONE_EVENTS = ['AccountDeleted', 'MemberErased'] as const;

/** The member an event removes from the read models, undefined for any other event. */
export const goneMember = (event: RecordedAppEvent): string | undefined =>
  event.type === 'AccountDeleted' || event.type === 'MemberErased' ? event.data.userId : undefined;

/** How many times each key occurs (one guarded write per document per event: changes are summed first). */
export function tally<K>(keys: Iterable<K>): Map<K, number> {
  const out = new Map<K, number>();
  for (const k of keys) out.set(k, (out.get(k) ?? 0) + 1);
  return out;
}
