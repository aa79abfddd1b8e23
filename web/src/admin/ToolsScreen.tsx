import { useToast } from '../shell/toast';
import { AdminPage } from './AdminPage';
import { RebuildCard } from './RebuildCard';
import { ProjectionsHealthCard } from './ProjectionsHealthCard';
import { BroomIcon, BugIcon, DatabaseIcon } from '../shell/ui/icons';
import { ToolCard } from './ToolCard';

const TITLE = 'Outils';
const NOT_ACTIVE = 'Fonction non encore active';
const SOON = 'Bientôt disponible';

const LATER = [
  {
    Icon: DatabaseIcon,
    title: 'Exporter la base de données',
    text: 'Télécharger une copie des données de la plateforme.',
  },
  {
    Icon: BugIcon,
    title: 'Débogage / journaux',
    text: 'Consulter les journaux techniques du serveur.',
  },
] as const;

/** /admin/tools (the product screens): clear cache (not active yet), two tools to come, the projections' state (resume a stopped one) and their rebuild. */
export default function ToolsScreen() {
  const toast = useToast();
  return (
    <AdminPage title={TITLE}>
      <ul className="grid-list tool-grid">
        <li>
          <ToolCard Icon={BroomIcon} title="Vider le cache" text="Effacer les données mises en cache par le serveur.">
            <button type="button" className="btn btn--secondary" onClick={() => toast.info(NOT_ACTIVE)}>
              Vider le cache
            </button>
          </ToolCard>
        </li>
        {LATER.map((tool, index) => (
          <li key={tool.title}>
            <ToolCard
              Icon={tool.Icon}
              title={tool.title}
              text={tool.text}
              badge={
                <span id={`tool-later-${index}-soon`} className="soon-badge">
                  {SOON}
                </span>
              }
            >
              <button
                type="button"
                className="btn btn--secondary"
                disabled
                aria-describedby={`tool-later-${index}-soon`}
              >
                {tool.title}
              </button>
            </ToolCard>
          </li>
        ))}
        <li className="tool-grid__wide">
          <ProjectionsHealthCard />
        </li>
        <li className="tool-grid__wide">
          <RebuildCard />
        </li>
      </ul>
    </AdminPage>
  );
}
