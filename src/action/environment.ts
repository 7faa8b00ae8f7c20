// What the Action hands on to gsd-check, and so to every gate's command: the
// step's environment as a `run:` step would have it. The runner gives a
// JavaScript action more than that (actions/runner's
// NodeScriptActionHandler): its inputs, and tokens and addresses of its own
// services, with which the Actions cache is written. A `run:` step gets the
// OIDC request token too, when the job may mint one (`id-token: write`);
// a gate has no use for it, and with it a capability's command could mint
// cloud credentials: it is left out as well.

const ACTION_ONLY: ReadonlySet<string> = new Set([
  'ACTIONS_RUNTIME_TOKEN',
  'ACTIONS_RUNTIME_URL',
  'ACTIONS_CACHE_URL',
  'ACTIONS_RESULTS_URL',
  'ACTIONS_CACHE_SERVICE_V2',
  'ACTIONS_CACHE_MODE',
  'ACTIONS_ID_TOKEN_REQUEST_URL',
  'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
]);

export function commandEnvironment(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const handed: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || ACTION_ONLY.has(name) || name.startsWith('INPUT_')) continue;
    handed[name] = value;
  }
  return handed;
}
