import { useCurrentUser } from '../identity/sessionContext';
import { LoginPrompt } from '../identity/LoginPrompt';
import { requestMyExport } from './api';
import { ExportList } from './ExportRow';
import { useExportRequest, useMyExports } from './useExports';
import './data-export.css';

const TITLE = 'Mes données';
const REQUEST = 'Demander mon archive';
const LOAD_FAILED = 'Impossible de charger tes archives.';

/** /mes-donnees: the member asks for an archive of everything EVO holds about them, and downloads it. */
export default function MyDataScreen() {
  const { user } = useCurrentUser();
  const exports = useMyExports(user !== null);
  const { data } = exports;
  const { ask, disabled } = useExportRequest(exports, requestMyExport);
  const ttl = data?.ttl_days ?? 7;

  return (
    <section className="page data-export-page" aria-labelledby="data-export-title">
      <title>{`${TITLE} · EVO`}</title>
      <header>
        <h1 id="data-export-title" tabIndex={-1}>
          {TITLE}
        </h1>
        <p className="data-export-page__intro">
          Demande une archive de tout ce qu’EVO garde à ton sujet : ton profil et ta photo, tes vidéos (fichiers
          compris), tes commentaires, tes messages privés envoyés et reçus, tes « j’aime », favoris, abonnements,
          signalements, notifications, cadeaux, chaque mouvement de coins avec ton solde après, et tes connexions.
        </p>
        <p className="data-export-page__intro">
          C’est un fichier ZIP (des fichiers JSON, tes médias et un mode d’emploi en français). Sa préparation peut
          prendre quelques minutes : tu reçois une notification quand elle est prête. Le lien de téléchargement est
          valable <strong>{ttl} jours</strong>, pour toi seul·e ; l’archive est ensuite effacée.
        </p>
      </header>
      {!user ? (
        <LoginPrompt />
      ) : (
        <>
          <div className="data-export-page__actions">
            <button type="button" className="btn btn--primary" onClick={() => void ask()} disabled={disabled}>
              {REQUEST}
            </button>
            {data && !data.can_request ? (
              <span className="data-export-page__hint">Ton archive est en préparation.</span>
            ) : null}
          </div>
          <ExportList
            exports={exports}
            label="Mes archives"
            failed={LOAD_FAILED}
            empty="Tu n’as encore demandé aucune archive."
          />
        </>
      )}
    </section>
  );
}
