import { artifactPage, artifactsPage } from './artifacts';
import { controlsPage, evaluationPage, evaluationsPage } from './controls';
import { environmentPage, environmentsPage, snapshotPage } from './environments';
import { flowPage, flowsPage, overviewPage, trailsPage } from './flows';
import { logPage } from './log';
import { searchPage } from './search';
import { trailPage } from './trail';

export interface Ctx {
  params: Record<string, string>;
  query: URLSearchParams;
  main: HTMLElement;
  setTitle(title: string): void;
}

interface Route {
  pattern: RegExp;
  names: string[];
  render(ctx: Ctx): Promise<void>;
}

const seg = '([^/]+)';

function route(template: string, render: (ctx: Ctx) => Promise<void>): Route {
  const names: string[] = [];
  const source = template.replace(/:(\w+)/g, (_, n: string) => (names.push(n), seg));
  return { pattern: new RegExp(`^${source}$`), names, render };
}

/** Every page and its URL: each is shareable, and its query string holds its page number and filters. */
export const routes: Route[] = [
  route('/ui/o/:org', overviewPage),
  route('/ui/o/:org/flows', flowsPage),
  route('/ui/o/:org/trails', trailsPage),
  route('/ui/o/:org/flows/:flow', flowPage),
  route('/ui/o/:org/flows/:flow/trails/:trail', trailPage),
  route('/ui/o/:org/artifacts', artifactsPage),
  route('/ui/o/:org/artifacts/:flow/:fingerprint', artifactPage),
  route('/ui/o/:org/environments', environmentsPage),
  route('/ui/o/:org/environments/:env', environmentPage),
  route('/ui/o/:org/environments/:env/snapshots/:snapshot', snapshotPage),
  route('/ui/o/:org/controls', controlsPage),
  route('/ui/o/:org/evaluations', evaluationsPage),
  route('/ui/o/:org/evaluations/:id', evaluationPage),
  route('/ui/o/:org/log', logPage),
  route('/ui/o/:org/search', searchPage),
];
