import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { adminRoutes, type StoppedProjectionView } from '@evo/contracts';
import { errorMessage } from '../api/http';
import { routeQuery } from '../api/queries';
import { useConfirm } from '../shell/confirm';
import { useToast } from '../shell/toast';
import { resumeProjection } from './api';
import { formatDateTime } from './format';
import { CheckCircleIcon, DatabaseIcon, WarningIcon } from '../shell/ui/icons';
import { ToolCard } from './ToolCard';

const TITLE = 'État des projections';
/** the state is looked at again this often while the screen is open */
const POLL_MS = 10_000;

/**
 * GET /api/admin/projections/status: whether the read models follow the log, the projections
 * stopped on an event they could not apply (event, type, error), each with "Reprendre" once the
 * cause is fixed (POST …/:name/resume; the server answers in French when it still fails, or when
 * the projections service of a distributed deployment owns them: `npm run replay -- --resume`).
 */
export function ProjectionsHealthCard() {
  const health = useQuery({ ...routeQuery(adminRoutes.projectionsStatus, {}), refetchInterval: POLL_MS });
  const { data, error, isFetching: loading } = health;
  const reload = () => void health.refetch();

  return (
    <ToolCard
      Icon={DatabaseIcon}
      title={TITLE}
      text="Les projections tiennent à jour les modèles de lecture depuis le journal. Une projection qui échoue plusieurs fois sur le même événement est arrêtée là ; les autres continuent. Corrige la cause, puis reprends-la."
    >
      {!data && loading ? <p className="projections-state projections-state--idle">Chargement…</p> : null}
      {!data && error ? (
        <p className="alert alert--danger" role="alert">
          État des projections indisponible. {errorMessage(error) ?? ''}
        </p>
      ) : null}
      {data ? (
        <>
          <p
            className={`projections-state ${data.stopped.length === 0 && !data.store_error ? 'projections-state--ok' : 'projections-state--ko'}`}
            role="status"
          >
            {data.stopped.length === 0 && !data.store_error ? (
              <CheckCircleIcon size={20} className="status-icon" />
            ) : (
              <WarningIcon size={20} className="status-icon" />
            )}
            {summary(data.caught_up, data.stopped.length)}
          </p>
          {data.store_error ? (
            <p className="alert alert--danger" role="alert">
              Les modèles de lecture ne peuvent pas être écrits : {data.store_error}. Nouvel essai automatique.
            </p>
          ) : null}
          {data.stopped.length > 0 ? (
            <ul className="stopped-list" aria-label="Projections arrêtées">
              {data.stopped.map((s) => (
                <StoppedRow key={s.name} stopped={s} onResumed={reload} />
              ))}
            </ul>
          ) : null}
        </>
      ) : null}
    </ToolCard>
  );
}

function summary(caughtUp: boolean, stopped: number): string {
  if (stopped === 1) return '1 projection est arrêtée : les autres sont à jour.';
  if (stopped > 1) return `${stopped} projections sont arrêtées : les autres sont à jour.`;
  return caughtUp ? 'Toutes les projections sont à jour.' : 'Les projections rattrapent le journal…';
}

function StoppedRow({ stopped, onResumed }: { stopped: StoppedProjectionView; onResumed: () => void }) {
  const toast = useToast();
  const confirm = useConfirm();
  const [resuming, setResuming] = useState(false);
  const resume = async () => {
    if (
      !(await confirm(`Reprendre la projection « ${stopped.name} » à l'événement ${stopped.position} ?`, {
        confirmLabel: 'Reprendre',
      }))
    )
      return;
    setResuming(true);
    try {
      toast.success((await resumeProjection(stopped.name)).message);
      onResumed();
    } catch (err) {
      toast.error('Reprise impossible.', { detail: errorMessage(err) });
    } finally {
      setResuming(false);
    }
  };
  return (
    <li className="stopped-projection">
      <div className="stopped-projection__text">
        <strong>{stopped.name}</strong>
        <span>
          Arrêtée à l'événement {stopped.position} ({stopped.type}) le {formatDateTime(stopped.at)}
        </span>
        <code className="stopped-projection__error">{stopped.error}</code>
      </div>
      <button type="button" className="btn btn--primary" disabled={resuming} onClick={() => void resume()}>
        {resuming ? 'Reprise…' : 'Reprendre'}
      </button>
    </li>
  );
}
