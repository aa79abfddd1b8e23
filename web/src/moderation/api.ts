import { MessageAnswer, RestrictionCreatedAnswer, type RestrictionScopeName } from '@evo/contracts';
import { api } from '../api/http';
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
