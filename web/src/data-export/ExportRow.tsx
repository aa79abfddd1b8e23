import type { UseQueryResult } from '@tanstack/react-query';
import type { DataExportView, DataExportsAnswer } from '@evo/contracts';
import { errorMessage } from '../api/http';
import { QueryState } from '../shell/ui/QueryState';
import { STATUS_LABELS, formatSize, formatWhen } from './format';

/** One archive: its state, its progress while built, its link while valid. */
export function ExportRow({ x, adminView = false }: { x: DataExportView; adminView?: boolean }) {
  return (
    <li className="data-export" data-export={x.id} data-status={x.status}>
      <div className="data-export__head">
        <span className="data-export__when">Demandée le {formatWhen(x.requested_at)}</span>
        <span className={`data-export__badge data-export__badge--${x.status}`}>{STATUS_LABELS[x.status]}</span>
      </div>
      {x.by_admin && !adminView ? (
        <p className="data-export__note">
          Préparée par l’équipe EVO pour une demande reçue par courrier : elle t’est envoyée par ce moyen, pas
          téléchargeable ici.
        </p>
      ) : null}
      {x.status === 'en_preparation' ? (
        <div className="data-export__progress">
          <progress max={100} value={x.progress} aria-label="Préparation de l’archive">
            {x.progress} %
          </progress>
          <span>{x.progress} %</span>
        </div>
      ) : null}
      {x.status === 'prete' && x.download_url && x.expires_at ? (
        <div className="data-export__ready">
          <a className="btn btn--primary btn--small" href={x.download_url} download>
            Télécharger{x.size_bytes !== null ? ` (${formatSize(x.size_bytes)})` : ''}
          </a>
          <span className="data-export__expiry">Lien valable jusqu’au {formatWhen(x.expires_at)}</span>
        </div>
      ) : null}
      {x.status === 'expiree' ? (
        <p className="data-export__note">Ce lien a expiré et l’archive a été effacée.</p>
      ) : null}
      {x.status === 'echouee' && x.error ? (
        <p className="data-export__note data-export__note--error">{x.error}</p>
      ) : null}
    </li>
  );
}

/** A list of archives (the member's own, or one member's in the back-office) with its loading, failure and empty states. */
export function ExportList({
  exports,
  label,
  failed,
  empty,
  adminView = false,
}: {
  exports: UseQueryResult<DataExportsAnswer>;
  label: string;
  failed: string;
  empty: string;
  adminView?: boolean;
}) {
  return (
    <QueryState
      query={exports}
      failed={(err) => errorMessage(err) ?? failed}
      empty={empty}
      isEmpty={(d) => d.exports.length === 0}
    >
      {(d) => (
        <ul className="stack-list data-export-list" aria-label={label}>
          {d.exports.map((x) => (
            <ExportRow key={x.id} x={x} adminView={adminView} />
          ))}
        </ul>
      )}
    </QueryState>
  );
}
