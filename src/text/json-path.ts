const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

// Renders a path the way a reader would write it in JavaScript, so that
// odd keys (spaces, dots, "__proto__"-like names) stay unambiguous.
export function jsonPath(root: string, keys: readonly (string | number)[]): string {
  let out = root;
  for (const key of keys) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (IDENTIFIER.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
}
