import { useEffect, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { errorMessage } from '../api/http';
import { useCurrentUser } from '../identity/sessionContext';
import { useConfirm, type ConfirmOptions } from '../shell/confirm';
import { useToast } from '../shell/toast';
import { QueryState } from '../shell/ui/QueryState';
import { AdminPage, AdminSearch } from './AdminPage';
import { issuePasswordResetLink, setAdminRight, unlockLogin, type AdminUser } from './api';
import { auditPath } from './coinLabels';
import { formatDate, formatDateTime, formatNumber } from './format';
import { useAdminUsers } from './hooks';
import { useDebounced } from '../shell/useDebounced';
import { Pagination, usePageParam } from './Pagination';
import { TableScroll } from './TableScroll';

import { AdminMemberExports } from '../data-export/AdminMemberExports';

const TITLE = 'Utilisateurs';
const PAGE_SIZE = 20;
/** the server refuses longer searches ('Recherche invalide.') */
const SEARCH_MAX = 100;
const LOAD_FAILED = 'Impossible de charger les membres.';
const EMPTY = 'Aucun membre trouvé.';
const ACTION_FAILED = 'Action impossible.';

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();
const who = (user: AdminUser) => (user.pseudo ? `@${user.pseudo} (${user.email})` : user.email);

function roleLabel(user: AdminUser): string {
  if (user.is_admin) return 'Administrateur';
  if (!user.role || user.role === 'user' || user.role === 'member') return 'Membre';
  return user.role;
}

/** /admin/users: search, paginated table, grant / revoke the administrator right. */
export default function UsersScreen() {
  const { user: me, signIn } = useCurrentUser();
  const toast = useToast();
  const confirm = useConfirm();
  const searchId = useId();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const page = usePageParam();
  const [draft, setDraft] = useState(q);
  const debounced = useDebounced(draft, 300);
  const users = useAdminUsers(q, page, PAGE_SIZE);
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);
  /** the last reset link issued, shown for the administrator to hand over */
  const [resetLink, setResetLink] = useState<{ who: string; message: string; link: string } | null>(null);
  /** the member whose data archives are shown ("Mes données" for a request received by post) */
  const [exportsOf, setExportsOf] = useState<{ id: string; who: string } | null>(null);

  // the typed search becomes ?q= (and goes back to page 1) once typing pauses
  useEffect(() => {
    if (debounced.trim() === q.trim()) return;
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (debounced.trim()) next.set('q', debounced.trim());
        else next.delete('q');
        next.delete('page');
        return next;
      },
      { replace: true },
    );
  }, [debounced, q, setParams]);

  /** once the administrator confirms, `action` runs with the member's row busy; a refusal is said in a toast */
  const confirmThen = async (
    user: AdminUser,
    question: string,
    options: ConfirmOptions,
    action: () => Promise<void>,
  ) => {
    if (!(await confirm(question, options))) return;
    setPendingEmail(user.email);
    try {
      await action();
    } catch (err) {
      toast.error(errorMessage(err) ?? ACTION_FAILED);
    } finally {
      setPendingEmail(null);
    }
  };

  const toggleAdmin = (user: AdminUser) => {
    const grant = !user.is_admin;
    const question = grant
      ? `Donner les droits d'administrateur à ${who(user)} ?`
      : `Retirer les droits d'administrateur à ${who(user)} ?`;
    return confirmThen(
      user,
      question,
      { confirmLabel: grant ? 'Donner les droits' : 'Retirer les droits', danger: !grant },
      async () => {
        const answer = await setAdminRight(user.email, grant);
        toast.success(answer.message ?? (grant ? 'Droits accordés.' : 'Droits retirés.'));
        // one's own role changed: the session follows (without the role, the back-office closes)
        if (me && answer.user && sameEmail(answer.user.email, me.email)) {
          signIn({ ...me, role: answer.user.role, is_admin: answer.user.is_admin });
        }
        void users.refetch();
      },
    );
  };

  const unlock = (user: AdminUser) =>
    confirmThen(user, `Débloquer la connexion de ${who(user)} ?`, { confirmLabel: 'Débloquer' }, async () => {
      toast.success((await unlockLogin(user.email)).message);
      void users.refetch();
    });

  const issueResetLink = (user: AdminUser) =>
    confirmThen(
      user,
      `Créer un lien de réinitialisation du mot de passe pour ${who(user)} ?`,
      { confirmLabel: 'Créer le lien' },
      async () => {
        const answer = await issuePasswordResetLink(user.email);
        setResetLink({ who: who(user), message: answer.message, link: answer.link });
      },
    );

  const copyResetLink = async () => {
    if (!resetLink) return;
    try {
      await navigator.clipboard.writeText(resetLink.link);
      toast.success('Lien copié !');
    } catch {
      // no clipboard (an insecure origin): the field is selected for a manual copy
      (document.getElementById('admin-reset-link') as HTMLInputElement | null)?.select();
    }
  };

  const data = users.data;
  const content = (
    <QueryState query={users} failed={LOAD_FAILED} detail empty={EMPTY} isEmpty={(data) => data.items.length === 0}>
      {(data) => (
        <>
          <TableScroll label="Membres">
            <table className="admin-table" aria-busy={users.isFetching}>
              <thead>
                <tr>
                  <th scope="col">Pseudo et email</th>
                  <th scope="col">Rôle</th>
                  <th scope="col">Inscription</th>
                  <th scope="col">Dernière connexion</th>
                  <th scope="col" className="num">
                    Vidéos
                  </th>
                  <th scope="col" className="num">
                    Abonnés
                  </th>
                  <th scope="col" className="num">
                    Solde (coins)
                  </th>
                  <th scope="col">Connexion</th>
                  <th scope="col">Droits</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((user) => {
                  const self = !!me && sameEmail(me.email, user.email);
                  return (
                    <tr key={user.id || user.email}>
                      <th scope="row">
                        {user.pseudo ? (
                          <Link to={`/user/${encodeURIComponent(user.pseudo)}`}>@{user.pseudo}</Link>
                        ) : (
                          '—'
                        )}
                        <span className="admin-table__sub">{user.email}</span>
                      </th>
                      <td>
                        <span className={user.is_admin ? 'role-badge role-badge--admin' : 'role-badge'}>
                          {roleLabel(user)}
                        </span>
                      </td>
                      <td>{formatDate(user.created_at)}</td>
                      <td>{user.last_login_at ? formatDateTime(user.last_login_at) : 'Jamais'}</td>
                      <td className="num">{formatNumber(user.videos)}</td>
                      <td className="num">{formatNumber(user.followers)}</td>
                      <td className="num">
                        <Link to={auditPath(user.email)} aria-label={`Audit des coins de ${user.email}`}>
                          {formatNumber(user.balance)}
                        </Link>
                      </td>
                      <td>
                        <div className="admin-login-cell">
                          {user.login_failures > 0 ? (
                            <span className="admin-login-lock">
                              <span className="admin-login-lock__count">
                                {user.login_failures} échec{user.login_failures > 1 ? 's' : ''} (15 min)
                              </span>
                              <button
                                type="button"
                                className="btn btn--secondary btn--small"
                                disabled={pendingEmail === user.email}
                                aria-label={`Débloquer la connexion de ${who(user)}`}
                                onClick={() => void unlock(user)}
                              >
                                Débloquer
                              </button>
                            </span>
                          ) : (
                            <span className="admin-login-lock__none">—</span>
                          )}
                          <button
                            type="button"
                            className="btn btn--ghost btn--small"
                            disabled={pendingEmail === user.email}
                            aria-label={`Créer un lien de réinitialisation du mot de passe pour ${who(user)}`}
                            onClick={() => void issueResetLink(user)}
                          >
                            Lien mot de passe
                          </button>
                        </div>
                      </td>
                      <td>
                        {/* one above the other: the column keeps its width in a 1280-px window */}
                        <div className="admin-login-cell">
                          <button
                            type="button"
                            className={user.is_admin ? 'btn btn--ghost btn--small' : 'btn btn--secondary btn--small'}
                            disabled={pendingEmail === user.email}
                            aria-label={
                              user.is_admin
                                ? `Retirer les droits d'administrateur à ${who(user)}`
                                : `Donner les droits d'administrateur à ${who(user)}`
                            }
                            onClick={() => void toggleAdmin(user)}
                          >
                            {user.is_admin ? (self ? 'Retirer mes droits' : 'Retirer admin') : 'Nommer admin'}
                          </button>
                          <button
                            type="button"
                            className="btn btn--ghost btn--small"
                            aria-label={`Archive des données de ${who(user)}`}
                            onClick={() => setExportsOf({ id: user.id, who: who(user) })}
                          >
                            Données
                          </button>
                        </div>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableScroll>
          <Pagination total={data.total} limit={data.limit || PAGE_SIZE} label="Pages des membres" />
        </>
      )}
    </QueryState>
  );

  return (
    <AdminPage
      title={TITLE}
      intro="Rechercher un membre, voir son activité, débloquer sa connexion, lui créer un lien pour changer de mot de passe, gérer les droits d’administrateur, préparer l’archive de ses données."
    >
      <AdminSearch
        id={searchId}
        label="Rechercher un membre"
        placeholder="Pseudo ou email"
        maxLength={SEARCH_MAX}
        value={draft}
        onValue={setDraft}
        count={data ? `${formatNumber(data.total)} membre${data.total > 1 ? 's' : ''}` : null}
      />
      {resetLink ? (
        <section className="admin-reset-link" aria-labelledby="admin-reset-link-title">
          <h2 id="admin-reset-link-title">Lien de réinitialisation pour {resetLink.who}</h2>
          <p role="status">{resetLink.message}</p>
          <div className="admin-reset-link__row">
            <label htmlFor="admin-reset-link" className="sr-only">
              Lien de réinitialisation
            </label>
            <input
              id="admin-reset-link"
              type="text"
              readOnly
              value={resetLink.link}
              onFocus={(event) => event.target.select()}
            />
            <button type="button" className="btn btn--secondary btn--small" onClick={() => void copyResetLink()}>
              Copier
            </button>
            <button type="button" className="btn btn--ghost btn--small" onClick={() => setResetLink(null)}>
              Fermer
            </button>
          </div>
        </section>
      ) : null}
      {exportsOf ? (
        <AdminMemberExports
          key={exportsOf.id}
          memberId={exportsOf.id}
          who={exportsOf.who}
          onClose={() => setExportsOf(null)}
        />
      ) : null}
      {content}
    </AdminPage>
  );
}
