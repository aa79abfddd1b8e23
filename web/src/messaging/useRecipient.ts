import { ApiError } from '../api/http';
import { fetchUserByPseudo, type PublicUser } from '../social/api';
import { useLoad } from '../api/useLoad';

export const USER_INCOMPLETE = 'Utilisateur introuvable ou incomplet.';
export const USER_LOOKUP_FAILED = "Impossible de récupérer l'utilisateur.";

/** GET /api/users/by-pseudo/:pseudo, with the the product error catalogue lookup messages. */
export function useRecipient(pseudo: string) {
  const loaded = useLoad<PublicUser>(pseudo ? `user:${pseudo}` : null, (signal) => fetchUserByPseudo(pseudo, signal));
  const incomplete = loaded.data !== undefined && (!loaded.data.email || !loaded.data.pseudo);
  const notFound = loaded.error instanceof ApiError && loaded.error.status === 404;
  const problem = incomplete || notFound ? USER_INCOMPLETE : loaded.error ? USER_LOOKUP_FAILED : null;
  return {
    user: incomplete ? undefined : loaded.data,
    loading: loaded.loading,
    problem,
    notFound: notFound || incomplete,
    reload: loaded.reload,
  };
}
