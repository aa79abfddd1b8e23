import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { errorMessage, isAbortError } from '../api/http';
import { useConfirm } from '../shell/confirm';
import { FormError, PasswordField, SubmitButton } from '../shell/ui/Form';
import { useToast } from '../shell/toast';
import { clearStoredUser } from './session';
import { deleteMyAccount } from './accountDeletionApi';
import './account-deletion.css';

/** the server's rule (domain/src/identity/account-deletion.ts, ACCOUNT_DELETION_GRACE_DAYS) */
const GRACE_DAYS = 30;
const FAILED = "❌ Ton compte n'a pas été supprimé.";
const DONE = 'Ton compte a été supprimé. À bientôt peut-être !';

/**
 * "Supprimer mon compte" (issue 31), in the member's settings: what disappears, what the ledger
 * keeps without their name, the rule on coins and the grace period, then the password typed again
 * and a confirmation. Once deleted, the member is logged out to the home page.
 */
export function DeleteAccountSection() {
  const navigate = useNavigate();
  const confirm = useConfirm();
  const toast = useToast();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; detail?: string } | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy || !password) return;
    const sure = await confirm('Supprimer définitivement ton compte ?', {
      confirmLabel: 'Supprimer mon compte',
      cancelLabel: 'Garder mon compte',
      danger: true,
      details: ['Cette action ne peut pas être annulée.'],
    });
    if (!sure) return;
    setBusy(true);
    setError(null);
    try {
      await deleteMyAccount(password);
      clearStoredUser();
      toast.info(DONE, { duration: 8000 });
      navigate('/', { replace: true });
    } catch (err) {
      if (isAbortError(err)) return;
      setError({ message: FAILED, detail: errorMessage(err) });
      setBusy(false);
    }
  };

  return (
    <section className="card account-deletion" aria-labelledby="account-deletion-title">
      <h2 id="account-deletion-title">Supprimer mon compte</h2>
      <p>La suppression est définitive. Dès que tu confirmes :</p>
      <ul className="account-deletion__list">
        <li>
          ton profil, tes vidéos (fichiers et miniatures), tes commentaires, tes messages privés, tes j’aime, tes
          favoris et tes abonnements disparaissent pour tout le monde ; quand un autre membre a répondu à l’un de tes
          commentaires, sa réponse reste sous « Membre supprimé » ;
        </li>
        <li>tu es déconnecté·e de tous tes appareils ;</li>
        <li>
          tes données personnelles sont effacées aussi de l’historique de la plateforme : elles y sont chiffrées avec
          une clé à toi, et cette clé est détruite.
        </li>
      </ul>
      <h3>Tes coins</h3>
      <p>
        Retire d’abord tes gains retirables (Coffre › Retrait) : tant qu’il t’en reste, la suppression est refusée. Tes
        coins achetés ou bonus et tes cadeaux pas encore récupérés sont perdus : ils reviennent à la plateforme, comme
        les cadeaux qu’on t’enverrait ensuite.
      </p>
      <p>
        Pour la comptabilité, le grand livre garde chaque mouvement de coins (montant, date, référence), rattaché à un
        identifiant anonyme, sans ton nom, ton pseudo ni ton email.
      </p>
      <p>Ton pseudo et ton email restent réservés {GRACE_DAYS} jours, puis quelqu’un d’autre pourra les utiliser.</p>
      <form className="form account-deletion__form" onSubmit={onSubmit} aria-busy={busy}>
        <PasswordField
          id="account-deletion-password"
          label="Ton mot de passe, pour confirmer"
          value={password}
          onValue={setPassword}
          disabled={busy}
        />
        {error ? <FormError message={error.message} detail={error.detail} /> : null}
        <SubmitButton
          busy={busy}
          busyLabel="Suppression..."
          label="Supprimer mon compte"
          className="btn btn--danger"
          disabled={!password}
        />
      </form>
    </section>
  );
}
