import { useState } from 'react';
import { errorMessage } from '../api/http';
import { useToast } from '../shell/toast';
import { QueryState } from '../shell/ui/QueryState';
import { requestMemberExport } from './api';
import { ExportRow } from './ExportRow';
import { useMemberExports } from './useExports';
import './data-export.css';

/**
 * The back-office's "Mes données" for one member (a request received by post): prepare the archive
 * (recorded with the administrator as its actor), follow it, download it. The member's own archives
 * are listed without a link: only they download those.
 */
export function AdminMemberExports({ memberId, who, onClose }: { memberId: string; who: string; onClose: () => void }) {
  const toast = useToast();
  const exports = useMemberExports(memberId);
  const { data } = exports;
  const [busy, setBusy] = useState(false);

  const ask = async () => {
    if (busy) return;
    setBusy(true);
    try {
      toast.success((await requestMemberExport(memberId)).message);
    } catch (err) {
      toast.error('Demande impossible', { detail: errorMessage(err) });
    } finally {
      await exports.refetch();
      setBusy(false);
    }
  };

  return (
    <section className="admin-reset-link data-export-admin" aria-labelledby="admin-data-export-title">
      <h2 id="admin-data-export-title">Données de {who}</h2>
      <p>
        Une archive de tout ce qu’EVO garde sur ce membre, pour une demande reçue par courrier. Elle est enregistrée à
        ton nom ; le membre la voit dans « Mes données » sans pouvoir la télécharger, et n’est pas notifié. Le lien est
        valable {data?.ttl_days ?? 7} jours.
      </p>
      <div className="admin-reset-link__row">
        <button
          type="button"
          className="btn btn--primary btn--small"
          onClick={() => void ask()}
          disabled={busy || !data || !data.can_request}
        >
          Préparer l’archive
        </button>
        <button type="button" className="btn btn--ghost btn--small" onClick={onClose}>
          Fermer
        </button>
      </div>
      <QueryState
        query={exports}
        failed={(err) => errorMessage(err) ?? 'Impossible de charger les archives.'}
        empty="Aucune archive pour ce membre."
        isEmpty={(d) => d.exports.length === 0}
      >
        {(d) => (
          <ul className="stack-list data-export-list" aria-label={`Archives de ${who}`}>
            {d.exports.map((x) => (
              <ExportRow key={x.id} x={x} adminView />
            ))}
          </ul>
        )}
      </QueryState>
    </section>
  );
}
