// Types for github-runner.mjs (plain JavaScript, shared with compat/).
export interface WorkflowEvent {
  readonly name: 'pull_request' | 'push';
  readonly branch: string;
  readonly github: Readonly<Record<string, unknown>>;
}
export function eventOf(words: readonly string[]): WorkflowEvent;
export function runWorkflow(
  workflow: string,
  options: {
    workspace: string;
    env: Readonly<Record<string, string | undefined>>;
    event?: WorkflowEvent;
    substitute?: (step: Record<string, unknown>, where: { workspace: string }) => string | undefined;
    timeoutMs?: number;
  },
): Promise<string>;
