/**
 * Whether an error means the disk holding DATA_DIR is full: a file write's ENOSPC (or a quota's
 * EDQUOT), or SQLite's SQLITE_FULL ("database or disk is full") from the event log or the sessions
 * file. Such a write changed nothing (SQLite rolls its transaction back; a file is written beside
 * its target and renamed), so the request is answered 503 and may be tried again once space is
 * freed (issue 29 item 6).
 */
export function isDiskFull(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL') return true;
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string' && /database or disk is full|no space left on device/i.test(message)) return true;
  }
  return false;
}
