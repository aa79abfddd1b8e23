import { DataExportRequestAnswer } from '@evo/contracts';
import { api } from '../api/http';
import { decode } from '../api/decode';

/** "Mes données" (issue 31): the member's archives, and the back-office's for a member. */

const enc = encodeURIComponent;

export const requestMyExport = async () => decode(DataExportRequestAnswer, await api.post('/api/me/data-exports'));

export const requestMemberExport = async (memberId: string) =>
  decode(DataExportRequestAnswer, await api.post(`/api/admin/users/${enc(memberId)}/data-exports`));
