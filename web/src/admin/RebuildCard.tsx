import { errorMessage } from '../api/http';
import { useConfirm } from '../shell/confirm';
import { useToast } from '../shell/toast';
import { ProgressBar } from '../shell/ui/ProgressBar';
import { isRebuildElsewhere, type RebuildState } from './api';
import { formatDecimal, formatDuration, formatNumber } from './format';
import { useRebuild } from './hooks';
import { CheckCircleIcon, RefreshIcon, XCircleIcon } from '../shell/ui/icons';
import { ToolCard } from './ToolCard';

const TITLE = 'Reconstruire les projections';
const CONFIRM =
  'Reconstruire toutes les projections à partir du journal des événements ? Le site reste en service pendant la reconstruction.';
const STARTED = 'Reconstruction lancée.';
const START_FAILED = 'Impossible de lancer la reconstruction.';
const NOT_HERE = 'Reconstruction impossible depuis ce serveur.';
const NOT_HERE_DETAIL = 'Les projections se reconstruisent avec « npm run replay » (service des projections).';
const STATE_UNKNOWN = 'État de la reconstruction indisponible.';
const IDLE = 'Aucune reconstruction depuis le démarrage du serveur.';

/**
 * POST /api/admin/projections/rebuild, then the live progress from the 'rebuild:progress'
 * socket event (events done, events per second, time left) and the final French message. Where
 * the server does not own the read models (GET answers 409), the card says so and cannot start.
 */
export function RebuildCard() {
  const toast = useToast();
  const confirm = useConfirm();
  const { state, readError, starting, start } = useRebuild();
  const running = state?.status === 'running';
  const elsewhere = !state && isRebuildElsewhere(readError);

  const launch = async () => {
    if (!(await confirm(CONFIRM, { confirmLabel: 'Reconstruire' }))) return;
    try {
      toast.info((await start()) || STARTED);
    } catch (err) {
      toast.error(START_FAILED, { detail: errorMessage(err) });
    }
  };

  return (
    <ToolCard
      Icon={RefreshIcon}
      title={TITLE}
      text="Relit tout le journal des événements pour reconstruire les modèles de lecture (fils, profils, soldes, statistiques) à côté des actuels, puis bascule dessus. Le site reste en service."
    >
      <button
        type="button"
        className="btn btn--primary"
        disabled={running || starting || elsewhere}
        onClick={() => void launch()}
      >
        {running ? 'Reconstruction en cours…' : TITLE}
      </button>

      {elsewhere ? (
        <p className="alert alert--info" role="status">
          <strong>{NOT_HERE}</strong> {errorMessage(readError) ?? NOT_HERE_DETAIL}
        </p>
      ) : null}
      {!state && readError !== undefined && !elsewhere ? (
        <p className="alert alert--danger" role="alert">
          {STATE_UNKNOWN} {errorMessage(readError) ?? ''}
        </p>
      ) : null}
      {state ? <RebuildStatus state={state} /> : null}
    </ToolCard>
  );
}

/** What the server says of the last rebuild: nothing yet, progress, done or failed. */
function RebuildStatus({ state }: { state: RebuildState }) {
  switch (state.status) {
    case 'idle':
      return <p className="rebuild-result rebuild-result--idle">{IDLE}</p>;
    case 'running':
      return (
        <div className="rebuild-progress">
          <ProgressBar value={state.fraction} label="Progression de la reconstruction" />
          <p className="rebuild-progress__figures">
            {formatNumber(state.done)} événements traités · {formatDecimal(Math.round(state.rate))} événements/s
            {state.fraction > 0 && state.fraction < 1 ? ` · reste environ ${formatDuration(state.etaSeconds)}` : ''}
          </p>
        </div>
      );
    case 'done':
      return (
        <p className="rebuild-result rebuild-result--ok" role="status">
          <CheckCircleIcon size={20} className="status-icon" />
          Projections reconstruites : {formatNumber(state.events)} événements en {formatDuration(state.seconds)}.
        </p>
      );
    case 'failed':
      return (
        <p className="rebuild-result rebuild-result--ko" role="alert">
          <XCircleIcon size={20} className="status-icon" />
          La reconstruction a échoué{state.error ? ` : ${state.error}` : '.'}
        </p>
      );
  }
}
