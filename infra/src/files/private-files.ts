import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';

/**
 * The data files hold password hashes, sessions, messages and uploads: readable and writable by
 * the account running EVO only. Files 0600, folders 0700, whatever the umask, and files an older
 * version created 0644 are tightened at start.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** chmod, tolerating a file system that has no modes to change or a folder we do not own */
function tighten(target: string, mode: number): void {
  try {
    chmodSync(target, mode);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'EROFS' && code !== 'ENOTSUP') throw e;
  }
}

/** The folder (and any missing parent) made 0700. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  tighten(dir, PRIVATE_DIR_MODE);
}

const inMemory = (file: string) => file === '' || file === ':memory:' || file.startsWith('file::memory:');

/**
 * An SQLite database file made 0600 before SQLite opens it (SQLite gives its -wal, -shm and
 * -journal files the database file's mode), and those made 0600 if they exist already.
 */
export function makePrivateDatabaseFile(file: string): void {
  if (inMemory(file)) return;
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  tighten(file, PRIVATE_FILE_MODE);
  for (const suffix of ['-wal', '-shm', '-journal'])
    if (existsSync(`${file}${suffix}`)) tighten(`${file}${suffix}`, PRIVATE_FILE_MODE);
}
