// A step's log as GitHub's runner reads it for workflow commands, after
// actions/runner's ActionCommand (TryParseV2, then TryParse) and
// ActionCommandManager (the registered commands, stop-commands and its
// resume token), so that a test can say which commands a log would run.

// The commands the runner registers, in lower case (it compares them so).
const REGISTERED = [
  'stop-commands',
  'set-env',
  'set-output',
  'save-state',
  'add-mask',
  'add-path',
  'add-matcher',
  'remove-matcher',
  'debug',
  'warning',
  'error',
  'notice',
  'group',
  'endgroup',
  'echo',
];

export interface WorkflowCommand {
  readonly command: string;
  readonly properties: Readonly<Record<string, string>>;
  readonly data: string;
}

// C#'s char.IsWhiteSpace, which TrimStart removes.
const LEADING_BLANKS = /^[\s\u0085]*/;

const unescape = (text: string, pairs: readonly (readonly [string, string])[]): string => pairs.reduce((s, [from, to]) => s.replaceAll(from, to), text);
const V2_DATA = [
  ['%0D', '\r'],
  ['%0A', '\n'],
  ['%25', '%'],
] as const;
const V2_PROPERTY = [
  ['%0D', '\r'],
  ['%0A', '\n'],
  ['%3A', ':'],
  ['%2C', ','],
  ['%25', '%'],
] as const;
const V1 = [
  ['%3B', ';'],
  ['%0D', '\r'],
  ['%0A', '\n'],
  ['%5D', ']'],
  ['%25', '%'],
] as const;

function parseV2(line: string, registered: ReadonlySet<string>): WorkflowCommand | undefined {
  const message = line.replace(LEADING_BLANKS, '');
  if (!message.startsWith('::')) return undefined;
  const end = message.indexOf('::', 2);
  if (end < 0) return undefined;
  const info = message.slice(2, end);
  const space = info.indexOf(' ');
  const command = (space < 0 ? info : info.slice(0, space)).toLowerCase();
  if (!registered.has(command)) return undefined;
  const properties: Record<string, string> = {};
  if (space > 0) {
    for (const pair of info
      .slice(space + 1)
      .trim()
      .split(',')
      .filter((p) => p !== '')) {
      const at = pair.indexOf('=');
      if (at > 0 && at < pair.length - 1) properties[pair.slice(0, at).toLowerCase()] = unescape(pair.slice(at + 1), V2_PROPERTY);
    }
  }
  return { command, properties, data: unescape(message.slice(end + 2), V2_DATA) };
}

function parseV1(line: string, registered: ReadonlySet<string>): WorkflowCommand | undefined {
  const prefix = line.indexOf('##[');
  if (prefix < 0) return undefined;
  const bracket = line.indexOf(']', prefix);
  if (bracket < 0) return undefined;
  const info = line.slice(prefix + 3, bracket);
  const space = info.indexOf(' ');
  const command = (space < 0 ? info : info.slice(0, space)).toLowerCase();
  if (!registered.has(command)) return undefined;
  const properties: Record<string, string> = {};
  if (space > 0) {
    for (const pair of info
      .slice(space + 1)
      .split(';')
      .filter((p) => p !== '')) {
      const at = pair.indexOf('=');
      if (at > 0 && at < pair.length - 1) properties[pair.slice(0, at).toLowerCase()] = unescape(pair.slice(at + 1), V1);
    }
  }
  return { command, properties, data: unescape(line.slice(bracket + 1), V1) };
}

// Every command the runner would act on in `log`, in order; a stop and its
// resume token included, the commands between them left out, as the runner
// leaves them.
export function workflowCommands(log: string): WorkflowCommand[] {
  const registered = new Set(REGISTERED);
  const found: WorkflowCommand[] = [];
  let stopToken: string | undefined;
  for (const line of log.split(/\r\n|\r|\n/)) {
    if (line === '' || (!line.includes('##[') && !line.includes('::'))) continue;
    const command = parseV2(line, registered) ?? parseV1(line, registered);
    if (command === undefined) continue;
    if (stopToken !== undefined) {
      if (command.command !== stopToken) continue;
      registered.delete(stopToken);
      stopToken = undefined;
      found.push(command);
      continue;
    }
    if (command.command === 'stop-commands') {
      stopToken = command.data.toLowerCase();
      registered.add(stopToken);
    }
    found.push(command);
  }
  return found;
}
