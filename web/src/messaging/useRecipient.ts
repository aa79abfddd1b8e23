import { socialRoutes } from '@evo/contracts';
import { ApiError } from '../api/http';
import { useRouteQuery } from '../api/queries';

export const USER_INCOMPLETE = 'Utilisateur introuvable ou incomplet.';
export const USER_LOOKUP_FAILED = "Impossible de récupérer l'utilisateur.";

/** GET /api/users/by-pseudo/:pseudo, with the the product error catalogue lookup messages. */
export function useRecipient(pseudo: string) {
  const loaded = useRouteQuery(socialRoutes.userByPseudo, pseudo ? { pseudo } : null);
  const incomplete = loaded.data !== undefined && (!loaded.data.email || !loaded.data.pseudo);
  const notFound = loaded.error instanceof ApiError && loaded.error.status === 404;
  const problem = incomplete || notFound ? USER_INCOMPLETE : loaded.error ? USER_LOOKUP_FAILED : null;
  return { user: incomplete ? undefined : loaded.data, problem, notFound: notFound || incomplete };
}
