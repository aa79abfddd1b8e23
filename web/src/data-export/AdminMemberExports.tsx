import { requestMemberExport } from './api';
import { ExportList } from './ExportRow';
import { useExportRequest, useMemberExports } from './useExports';
import './data-export.css';

/**
 * The back-office's "Mes données" for one member (a request received by post): prepare the archive
 * (recorded with the administrator as its actor), follow it, download it. The member's own archives
 * are listed without a link: only they download those.
 */
export function AdminMemberExports({ memberId, who, onClose }: { memberId: string; who: string; onClose: () => void }) {
  const exports = useMemberExports(memberId);
  const { ask, disabled } = useExportRequest(exports, () => requestMemberExport(memberId));

  return (
    <section className="admin-reset-link data-export-admin" aria-labelledby="admin-data-export-title">
      <h2 id="admin-data-export-title">Données de {who}</h2>
      <p>
        Une archive de tout ce qu’EVO garde sur ce membre, pour une demande reçue par courrier. Elle est enregistrée à
        ton nom ; le membre la voit dans « Mes données » sans pouvoir la télécharger, et n’est pas notifié. Le lien est
        valable {exports.data?.ttl_days ?? 7} jours.
      </p>
      <div className="admin-reset-link__row">
        <button type="button" className="btn btn--primary btn--small" onClick={() => void ask()} disabled={disabled}>
          Préparer l’archive
        </button>
        <button type="button" className="btn btn--ghost btn--small" onClick={onClose}>
          Fermer
        </button>
      </div>
      <ExportList
        exports={exports}
        label={`Archives de ${who}`}
        failed="Impossible de charger les archives."
        empty="Aucune archive pour ce membre."
        adminView
      />
    </section>
  );
}
