import { MessageAnswer, RestrictionCreatedAnswer, type RestrictionScopeName } from '@evo/contracts';
import { useState } from 'react';
import { api, errorMessage } from '../api/http';
import { useToast } from '../shell/toast';
import { decode } from '../api/decode';

/** Moderation decisions, appeals and restrictions (issue 32): the member's calls and the back-office's. */

const enc = encodeURIComponent;

export const appealDecision = async (decisionId: string, text: string) =>
  decode(MessageAnswer, await api.post(`/api/moderation/decisions/${enc(decisionId)}/appeal`, { text }));

export const answerAppeal = async (decisionId: string, outcome: 'maintenue' | 'annulée', answer: string) =>
  decode(MessageAnswer, await api.put(`/api/admin/appeals/${enc(decisionId)}`, { outcome, answer }));

export interface RestrictionForm {
  email: string;
  scopes: RestrictionScopeName[];
  /** hours, or null with `ends_at`, or both null: until lifted */
  duration_hours: number | null;
  ends_at: string | null;
  reason: string;
}

export const restrictMember = async (form: RestrictionForm) =>
  decode(RestrictionCreatedAnswer, await api.post('/api/admin/restrictions', { ...form }));

export const liftRestriction = async (id: string) =>
  decode(MessageAnswer, await api.delete(`/api/admin/restrictions/${enc(id)}`));

/**
 * A moderation form's write (an appeal, its answer, a restriction): busy while it is sent; accepted,
 * the server's message as a toast, then `done` (awaited: the form stays busy until the lists are
 * fresh); refused, the server's reason (else `failed`) to show in the form until the next try.
 * Here, in the calls' chunk, and not TanStack's useMutation: a chunk of its own, or the mutation
 * observer in the query chunk, would add bytes to the first screen.
 */
export function useModerationWrite<V>(
  send: (vars: V) => Promise<{ message: string }>,
  failed: string,
  done: () => unknown,
) {
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const write = async (vars: V) => {
    setBusy(true);
    setError(null);
    try {
      toast.success((await send(vars)).message);
      await done();
    } catch (err) {
      setError(errorMessage(err) ?? failed);
    } finally {
      setBusy(false);
    }
  };
  return { send: (vars: V) => void write(vars), busy, error };
}
