/**
 * A data file EVO cannot start on (the event log damaged, or missing while uploads remain). Its
 * message is for the operator, in French: the file, what is wrong (and where, when an event is at
 * fault), and what to do. The entry point prints it alone, without a stack, and exits non-zero.
 */
export class DataFileError extends Error {
  constructor(
    /** the file (or folder) at fault */
    readonly file: string,
    /** what is wrong with it, in French */
    readonly problem: string,
    /** what the operator should do, in French */
    readonly advice: string,
    /** log position of the bad event, when one is at fault */
    readonly position?: bigint,
  ) {
    super(`EVO ne démarre pas : ${file}\n${problem}\n${advice}`);
    this.name = 'DataFileError';
  }
}

/** An event of the log whose stored text cannot be read back (found by the store while reading). */
export class UnreadableEventError extends Error {
  constructor(
    readonly position: bigint,
    readonly streamId: string,
    readonly type: string,
    readonly detail: string,
  ) {
    super(`Unreadable event at position ${position} (${streamId}, ${type}): ${detail}`);
    this.name = 'UnreadableEventError';
  }
}

/** What to do about a damaged event log (SQLite file). */
export const DAMAGED_LOG_ADVICE =
  "Que faire : arrêtez EVO et gardez une copie de ce fichier tel quel ; restaurez events.sqlite (et le dossier uploads) depuis votre dernière sauvegarde. Sans sauvegarde, « sqlite3 events.sqlite '.recover' » peut récupérer les événements lisibles dans un nouveau fichier. Ne supprimez pas le fichier : EVO repartirait de zéro.";
