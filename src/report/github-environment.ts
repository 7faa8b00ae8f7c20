import { isAbsolute } from 'node:path';

// GitHub's environment as gsd-check reads it, once, where the process
// starts (main.ts), and handed down: whether a GitHub Actions runner reads
// what it prints, the checkout, the job summary's file, and the commit the
// job runs on. Each value the runner gives is checked here, so that nothing
// downstream reads the variables or checks them again.
export interface GithubEnvironment {
  // GITHUB_ACTIONS=true: the runner reads stdout and stderr as its log,
  // and parses workflow commands in it (text/github-log.ts makes text inert).
  readonly actions: boolean;
  // GITHUB_WORKSPACE, when absolute: the repository's checkout, which paths
  // are shown relative to (project/shown-path.ts).
  readonly workspace: string | undefined;
  // GITHUB_STEP_SUMMARY, when not empty: where --report github appends.
  readonly stepSummary: string | undefined;
  // Where GitHub shows a file of the commit the job runs on, when the runner
  // names the server, the repository and the commit in their own shapes.
  readonly commit: { readonly server: string; readonly repository: string; readonly sha: string } | undefined;
}

export function githubEnvironment(env: Readonly<Record<string, string | undefined>>): GithubEnvironment {
  const { GITHUB_WORKSPACE: workspace, GITHUB_STEP_SUMMARY: summary, GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_SHA: sha } = env;
  const commit =
    server !== undefined &&
    /^https?:\/\/[^\s()<>"'\\]+$/.test(server) &&
    repository !== undefined &&
    /^[\w.-]+\/[\w.-]+$/.test(repository) &&
    sha !== undefined &&
    /^[0-9a-f]{40,64}$/.test(sha)
      ? { server: server.replace(/\/+$/, ''), repository, sha }
      : undefined;
  return {
    actions: env.GITHUB_ACTIONS === 'true',
    workspace: workspace !== undefined && isAbsolute(workspace) ? workspace : undefined,
    stepSummary: summary === undefined || summary === '' ? undefined : summary,
    commit,
  };
}
