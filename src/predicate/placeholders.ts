// Sticky: matches only where lastIndex puts it.
const PLACEHOLDER = /\$\{(PHASE_NUMBER|PHASE_DIR|PHASE_REQ_IDS)\}/y;

// The placeholders that sh leaves literal because they sit inside single
// quotes (`echo '${PHASE_DIR}'`): with textual substitution, as in GSD, they
// were filled in; here they never are. Read with sh's quoting rules:
// backslash escapes outside single quotes, nothing inside them.
export function singleQuotedPlaceholders(command: string): string[] {
  const found: string[] = [];
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else {
        PLACEHOLDER.lastIndex = i;
        const match = PLACEHOLDER.exec(command);
        if (match !== null) found.push(match[0]);
      }
    } else if (c === '\\') i++;
    else if (quote === '"') {
      if (c === '"') quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
  }
  return found;
}

// The phase variables a command names, whether sh expands them or the command
// hands them on (`sh -c 'ls "$PHASE_DIR"'`): with no phase selected they are
// empty, and the command checks something else than it says.
export function phaseVariables(command: string): string[] {
  return ['PHASE_NUMBER', 'PHASE_DIR'].filter((name) => new RegExp(`(?<![A-Za-z0-9_])${name}(?![A-Za-z0-9_])`).test(command));
}
