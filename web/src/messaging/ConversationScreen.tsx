import { Link, useParams } from 'react-router-dom';
import { useCurrentUser } from '../identity/sessionContext';
import { ArrowLeftIcon } from '../videos/icons';
import { ConversationView } from './ConversationView';
import { useRecipient } from './useRecipient';
import './messaging.css';
import { LoginPrompt } from '../identity/LoginPrompt';
import { Loading } from '../shell/Loading';

const CONVERSATION_NOT_FOUND = 'Conversation introuvable.';

/**
 * the product screens, "Conversation view (/messages/{pseudo})": thread + composer, live.
 * /conversation/{id} shows the same view when {id} is the other party's pseudo.
 */
export default function ConversationScreen() {
  const params = useParams();
  const byId = params.pseudo === undefined;
  const pseudo = (params.pseudo ?? params.id ?? '').trim();
  const { user } = useCurrentUser();
  const recipient = useRecipient(pseudo);
  const me = user?.email ?? null;

  let body;
  if (!me) {
    body = <LoginPrompt />;
  } else if (recipient.problem) {
    body = (
      <div className="alert alert--danger" role="alert">
        {byId && recipient.notFound ? CONVERSATION_NOT_FOUND : recipient.problem}
      </div>
    );
  } else if (!recipient.user) {
    body = <Loading />;
  } else {
    body = (
      <div className="card conversation-page__card fill">
        <ConversationView
          me={me}
          variant="page"
          headingLevel={1}
          other={{
            pseudo: recipient.user.pseudo,
            email: recipient.user.email,
            picture: recipient.user.profile_picture,
          }}
        />
      </div>
    );
  }

  return (
    <div className={recipient.user && me ? 'page page--fill conversation-page' : 'page conversation-page'}>
      <title>{pseudo ? `@${pseudo} · Messages · EVO` : 'Conversation · EVO'}</title>
      <Link to="/messages" className="btn btn--ghost btn--small conversation-page__back">
        <ArrowLeftIcon size={18} />
        Tous les messages
      </Link>
      {/* the thread has its own title; until it shows, the page still has one */}
      {recipient.user && me ? null : <h1 className="conversation-page__title">Conversation</h1>}
      {body}
    </div>
  );
}
