/** Unread-count badge: nothing at 0, never below 0, "99+" past 99. */
export function UnreadBadge({ count }: { count: number }) {
  const safe = Math.max(0, Math.floor(Number.isFinite(count) ? count : 0));
  if (safe === 0) return null;
  return (
    <span className="badge" aria-hidden="true">
      {safe > 99 ? '99+' : safe}
    </span>
  );
}
