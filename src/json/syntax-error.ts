// Where a text stops being JSON, and why, without quoting it: Node's
// JSON.parse messages quote the text ("AWS_SECRET"... is not valid JSON),
// and the text may be a secret handed to the wrong flag. Called only once
// JSON.parse has refused the text. Iterative, so no nesting depth can
// overflow the stack.
export interface JsonSyntaxError {
  readonly line: number;
  readonly column: number;
  readonly reason: string;
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;
const ESCAPE = /["\\/bfnrt]|u[0-9a-fA-F]{4}/y;

export function jsonSyntaxError(text: string): JsonSyntaxError {
  const at = (offset: number, reason: string): JsonSyntaxError => {
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1, reason };
  };
  const stack: ('{' | '[')[] = [];
  let i = 0;
  let state: 'value' | 'key' | 'after' = 'value';
  const skip = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  for (;;) {
    skip();
    // JSON.parse refused the text, so it cannot end here complete.
    if (i >= text.length) return at(i, 'unexpected end');
    const c = text[i]!;
    if (state === 'after') {
      const top = stack[stack.length - 1];
      if (top === undefined) return at(i, 'unexpected character after the value');
      if (c === ',') {
        i++;
        state = top === '{' ? 'key' : 'value';
      } else if ((c === '}' && top === '{') || (c === ']' && top === '[')) {
        stack.pop();
        i++;
      } else return at(i, top === '{' ? "expected ',' or '}'" : "expected ',' or ']'");
      continue;
    }
    if (state === 'key') {
      if (c !== '"') return at(i, 'expected a string key');
      const end = stringEnd(i);
      if (typeof end !== 'number') return at(end.offset, end.reason);
      i = end;
      skip();
      if (text[i] !== ':') return at(i, "expected ':'");
      i++;
      state = 'value';
      continue;
    }
    if (c === '{' || c === '[') {
      stack.push(c);
      i++;
      skip();
      if (text[i] === (c === '{' ? '}' : ']')) {
        stack.pop();
        i++;
        state = 'after';
      } else state = c === '{' ? 'key' : 'value';
      continue;
    }
    if (c === '"') {
      const end = stringEnd(i);
      if (typeof end !== 'number') return at(end.offset, end.reason);
      i = end;
    } else if (text.startsWith('true', i)) i += 4;
    else if (text.startsWith('false', i)) i += 5;
    else if (text.startsWith('null', i)) i += 4;
    else {
      NUMBER.lastIndex = i;
      if (!NUMBER.test(text)) return at(i, 'unexpected character');
      i = NUMBER.lastIndex;
    }
    state = 'after';
  }

  function stringEnd(start: number): number | { offset: number; reason: string } {
    for (let j = start + 1; j < text.length; j++) {
      const code = text.charCodeAt(j);
      if (code === 0x22) return j + 1;
      if (code < 0x20) return { offset: j, reason: 'control character in a string' };
      if (code === 0x5c) {
        ESCAPE.lastIndex = j + 1;
        if (!ESCAPE.test(text)) return { offset: j, reason: 'bad escape in a string' };
        j = ESCAPE.lastIndex - 1;
      }
    }
    return { offset: text.length, reason: 'unterminated string' };
  }
}
