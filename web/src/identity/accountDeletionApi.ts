import { AccountDeletedAnswer } from '@evo/contracts';
import { api } from '../api/http';
import { decode } from '../api/decode';

/** DELETE /api/users/me { password }: the account deleted, this session ended. */
export async function deleteMyAccount(password: string): Promise<AccountDeletedAnswer> {
  return decode(
    AccountDeletedAnswer,
    await api.delete('/api/users/me', { body: { password }, skipAuthRedirect: true }),
  );
}
