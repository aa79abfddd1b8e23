import type { Decider } from '../shared/decider';
import { DomainError, forbidden } from '../shared/errors';
import type { ProjectionsRebuildRequested } from './events';
import { MODERATION_MESSAGES } from './rules';

export type OperationsCommand = {
  type: 'RequestRebuild';
  requestedBy: string;
  /** from the requester's user stream */
  requesterIsAdmin: boolean;
  /** does this process own the read models (embedded role)? */
  embedded: boolean;
  /** is a rebuild already running here? */
  running: boolean;
};

/**
 * Nothing to fold: whether a rebuild may start depends only on who asks and on this process (both
 * in the command), never on earlier requests. The stream is the audit trail of the requests.
 */
export type OperationsState = null;

/** Administrators' operations (`admin-operations`): a rebuild of the read models, recorded for the audit. */
export const operationsDecider: Decider<OperationsCommand, ProjectionsRebuildRequested, OperationsState> = {
  initialState: () => null,
  evolve: (state) => state,
  decide(command) {
    if (!command.requesterIsAdmin) throw forbidden(MODERATION_MESSAGES.adminOnly);
    if (!command.embedded) throw new DomainError(MODERATION_MESSAGES.rebuildNotHere, 'conflict');
    if (command.running) throw new DomainError(MODERATION_MESSAGES.rebuildRunning, 'conflict');
    return [{ type: 'ProjectionsRebuildRequested', data: { requestedBy: command.requestedBy } }];
  },
};
