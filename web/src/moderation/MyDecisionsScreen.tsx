import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import type { DecisionView } from '@evo/contracts';
import { useCurrentUser } from '../identity/sessionContext';
import { LoginPrompt } from '../identity/LoginPrompt';
import { FormError } from '../shell/ui/Form';
import { appealDecision, useModerationWrite } from './api';
import { ACTION_LABELS, APPEAL_STATUS_LABELS, SCOPE_LABELS, formatDay, formatWhen, untilText } from './labels';
import { QueryState } from '../shell/ui/QueryState';
import { refreshMyModeration } from './live';
import { useMyModerationQuery } from './useMyModeration';
import './moderation.css';

const TITLE = 'Décisions de modération';
const INTRO =
  'Les décisions de la modération qui te concernent, avec leur motif. Tu peux contester chacune une fois, dans les 6 mois.';
const NONE = 'Aucune décision de modération ne te concerne.';
const APPEAL_FAILED = 'Contestation impossible';
const LOAD_FAILED = 'Chargement impossible';
const APPEAL_MAX = 2000;

function decisionTitle(d: DecisionView): string {
  if (d.kind === 'restriction') return `Restriction : ${d.scopes.map((s) => SCOPE_LABELS[s].toLowerCase()).join(', ')}`;
  const title = d.video_title?.trim() || 'Sans titre';
  return `${ACTION_LABELS[d.action ?? ''] ?? 'Décision'} : « ${title} »`;
}

/** Why "Contester la décision" is not offered (when there is no appeal yet). */
function closedReason(d: DecisionView): string {
  if (!d.in_force)
    return d.kind === 'restriction'
      ? 'Cette restriction est terminée : il n’y a plus rien à contester.'
      : 'Cette décision a été annulée ou remplacée depuis.';
  return `Le délai pour contester cette décision est dépassé depuis le ${formatWhen(d.appealable_until)}.`;
}

function AppealForm({ decision, onDone }: { decision: DecisionView; onDone: () => void }) {
  const client = useQueryClient();
  const id = useId();
  const [text, setText] = useState('');
  const { send, busy, error } = useModerationWrite<void>(
    () => appealDecision(decision.id, text),
    APPEAL_FAILED,
    async () => {
      await refreshMyModeration(client);
      onDone();
    },
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy) send();
  };

  return (
    <form className="appeal-form" onSubmit={submit} aria-busy={busy}>
      <div className="field">
        <label htmlFor={id}>Pourquoi contestes-tu cette décision ?</label>
        <textarea
          id={id}
          rows={4}
          maxLength={APPEAL_MAX}
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-describedby={error ? `${id}-error` : undefined}
          autoFocus
        />
      </div>
      {error ? <FormError id={`${id}-error`} message={error} /> : null}
      <div className="appeal-form__actions">
        <button type="button" className="btn btn--secondary btn--small" onClick={onDone} disabled={busy}>
          Annuler
        </button>
        <button type="submit" className="btn btn--primary btn--small" disabled={busy || !text.trim()}>
          Envoyer la contestation
        </button>
      </div>
    </form>
  );
}

export function DecisionCard({ decision }: { decision: DecisionView }) {
  const [appealing, setAppealing] = useState(false);
  const headingId = useId();
  const d = decision;
  return (
    <article className="card decision" aria-labelledby={headingId} data-decision={d.id}>
      <header className="decision__head">
        <h2 id={headingId} className="decision__title">
          {d.kind === 'video' && d.video_id ? (
            <Link to={`/video/${d.video_id}`}>{decisionTitle(d)}</Link>
          ) : (
            decisionTitle(d)
          )}
        </h2>
        <span className={d.in_force ? 'decision__badge decision__badge--on' : 'decision__badge'}>
          {d.in_force ? 'En vigueur' : 'Plus en vigueur'}
        </span>
      </header>
      <dl className="decision__meta">
        <div>
          <dt>Motif</dt>
          <dd>{d.reason}</dd>
        </div>
        <div>
          <dt>Décidée le</dt>
          <dd>{formatWhen(d.decided_at)}</dd>
        </div>
        {d.kind === 'restriction' ? (
          <div>
            <dt>Durée</dt>
            <dd>{untilText(d.ends_at)}</dd>
          </div>
        ) : null}
      </dl>
      {d.appeal ? (
        <div className="decision__appeal">
          <p
            className={`decision__appeal-status decision__appeal-status--${d.appeal.status === 'en_attente' ? 'wait' : 'done'}`}
          >
            {APPEAL_STATUS_LABELS[d.appeal.status]}
          </p>
          <p>
            <strong>Ta contestation</strong> ({formatDay(d.appeal.at)}) : {d.appeal.text}
          </p>
          {d.appeal.answer ? (
            <p>
              <strong>Réponse de la modération</strong> : {d.appeal.answer}
            </p>
          ) : null}
        </div>
      ) : d.can_appeal ? (
        appealing ? (
          <AppealForm decision={d} onDone={() => setAppealing(false)} />
        ) : (
          <div className="decision__actions">
            <button type="button" className="btn btn--primary btn--small" onClick={() => setAppealing(true)}>
              Contester la décision
            </button>
            <span className="decision__deadline">Possible jusqu’au {formatDay(d.appealable_until)}</span>
          </div>
        )
      ) : (
        <p className="decision__closed">{closedReason(d)}</p>
      )}
    </article>
  );
}

/** /moderation: the member's decisions and restrictions, with "Contester la décision". */
export default function MyDecisionsScreen() {
  const { user } = useCurrentUser();
  const mine = useMyModerationQuery();
  return (
    <section className="page moderation-page" aria-labelledby="moderation-title">
      <title>{`${TITLE} · EVO`}</title>
      <header>
        <h1 id="moderation-title" tabIndex={-1}>
          {TITLE}
        </h1>
        <p className="moderation-page__intro">{INTRO}</p>
      </header>
      {!user ? (
        <LoginPrompt />
      ) : (
        <QueryState query={mine} failed={LOAD_FAILED} empty={NONE} isEmpty={(m) => m.decisions.length === 0}>
          {(m) => (
            <div className="decision-list">
              {m.decisions.map((d) => (
                <DecisionCard key={d.id} decision={d} />
              ))}
            </div>
          )}
        </QueryState>
      )}
    </section>
  );
}
