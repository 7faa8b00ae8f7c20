// Makes the mutants of one TypeScript source: a small tokenizer (strings,
// template literals, comments and regular expressions are left alone) and a
// handful of operators, each a single textual change. TypeScript 7 has no
// JavaScript API to parse with; a mutant that lands in a type, and so changes
// nothing esbuild emits, is dropped by the caller by comparing the emitted code.

const PUNCT = [
  '>>>=',
  '...',
  '===',
  '!==',
  '**=',
  '<<=',
  '>>=',
  '>>>',
  '&&=',
  '||=',
  '??=',
  '=>',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '??',
  '?.',
  '++',
  '--',
  '+=',
  '-=',
  '*=',
  '/=',
  '%=',
  '&=',
  '|=',
  '^=',
  '**',
  '<<',
  '>>',
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  ';',
  ',',
  '<',
  '>',
  '+',
  '-',
  '*',
  '/',
  '%',
  '&',
  '|',
  '^',
  '!',
  '~',
  '?',
  ':',
  '=',
  '.',
  '@',
  '#',
];
// After these a `/` starts a regular expression, not a division.
const BEFORE_REGEX = new Set([
  '(',
  ',',
  '=',
  ':',
  '[',
  '!',
  '&',
  '|',
  '?',
  '{',
  '}',
  ';',
  '&&',
  '||',
  '??',
  '=>',
  'return',
  'typeof',
  'case',
  '===',
  '!==',
  '==',
  '!=',
]);

function tokens(src) {
  return scan(src, 0, []).tokens;
}

// Tokens from `from` to the end of src or, when `inTemplate`, to the brace
// that closes a template's `${…}` (the index after it is `end`). An expression
// in a template is scanned like any code, so a quote inside a regular
// expression there (`${s.replace(/'/g, …)}`) is not taken for a string. No
// loop runs past the end of src: a malformed source ends its token there.
function scan(src, from, out, inTemplate = false) {
  let i = from;
  let depth = 0;
  const push = (type, start) => out.push({ type, start, end: i, text: src.slice(start, i) });
  while (i < src.length) {
    const c = src[i];
    const start = i;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (src.startsWith('//', i)) {
      i = src.indexOf('\n', i);
      if (i === -1) i = src.length;
      continue;
    }
    if (src.startsWith('/*', i)) {
      const close = src.indexOf('*/', i + 2);
      i = close === -1 ? src.length : close + 2;
      continue;
    }
    if (c === '"' || c === "'") {
      for (i++; i < src.length && src[i] !== c; i++) if (src[i] === '\\') i++;
      i = Math.min(i + 1, src.length);
      push('string', start);
      continue;
    }
    if (c === '`') {
      i = skipTemplate(src, i);
      push('template', start);
      continue;
    }
    if (/[0-9]/.test(c) || (c === '.' && /[0-9]/.test(src[i + 1]))) {
      i++;
      while (/[0-9a-zA-Z_.]/.test(src[i] ?? '') || ((src[i] === '+' || src[i] === '-') && /[eE]/.test(src[i - 1]) && !/^0x/i.test(src.slice(start, i)))) i++;
      push('number', start);
      continue;
    }
    if (/[A-Za-z_$]/.test(c)) {
      while (/[\w$]/.test(src[i] ?? '')) i++;
      push('word', start);
      continue;
    }
    if (c === '/') {
      const prev = out.at(-1);
      if (!prev || BEFORE_REGEX.has(prev.text)) {
        let inClass = false;
        for (i++; i < src.length && (inClass || src[i] !== '/'); i++) {
          if (src[i] === '\\') i++;
          else if (src[i] === '[') inClass = true;
          else if (src[i] === ']') inClass = false;
        }
        i = Math.min(i + 1, src.length);
        while (/[a-z]/.test(src[i] ?? '')) i++;
        push('regex', start);
        continue;
      }
    }
    if (inTemplate && c === '}' && depth === 0) return { tokens: out, end: i + 1 };
    if (c === '{') depth++;
    else if (c === '}') depth--;
    const p = PUNCT.find((q) => src.startsWith(q, i));
    i += p ? p.length : 1;
    push('punct', start);
  }
  return { tokens: out, end: src.length };
}

// The index after the template literal that opens at i.
function skipTemplate(src, i) {
  for (i++; i < src.length && src[i] !== '`'; ) {
    if (src[i] === '\\') i += 2;
    else if (src[i] === '$' && src[i + 1] === '{') i = scan(src, i + 2, [], true).end;
    else i++;
  }
  return Math.min(i + 1, src.length);
}

const SWAP = {
  '===': '!==',
  '!==': '===',
  '==': '!=',
  '!=': '==',
  '<': '<=',
  '<=': '<',
  '>': '>=',
  '>=': '>',
  '&&': '||',
  '||': '&&',
  '??': '&&',
  '+': '-',
  '-': '+',
  '*': '/',
  '/': '*',
  '%': '*',
  '+=': '-=',
  '-=': '+=',
  true: 'false',
  false: 'true',
};

function bumped(text) {
  const n = Number(text.replaceAll('_', ''));
  if (!Number.isFinite(n)) return null;
  if (n === 0) return '1';
  return Number.isInteger(n) ? String(n + 1) : String(n * 2);
}

// Matching close paren of the `(` token at index k.
function closing(toks, k) {
  for (let depth = 0, j = k; j < toks.length; j++) {
    if (toks[j].text === '(') depth++;
    else if (toks[j].text === ')' && --depth === 0) return j;
  }
  return -1;
}

// Mutants as {start, end, replacement, description}: replace src[start, end).
export function mutants(src) {
  const toks = tokens(src);
  const out = [];
  toks.forEach((t, k) => {
    const prev = toks[k - 1];
    if (t.type === 'number') {
      const r = bumped(t.text);
      if (r !== null) out.push({ start: t.start, end: t.end, replacement: r, description: `${t.text} → ${r}` });
    } else if ((t.type === 'punct' || t.type === 'word') && Object.hasOwn(SWAP, t.text)) {
      // A unary + or - is a sign, mutated through its number.
      if ((t.text === '+' || t.text === '-') && (!prev || (prev.type === 'punct' && prev.text !== ')' && prev.text !== ']'))) return;
      out.push({ start: t.start, end: t.end, replacement: SWAP[t.text], description: `${t.text} → ${SWAP[t.text]}` });
    } else if (t.text === '!' && toks[k + 1]?.text !== '=') {
      out.push({ start: t.start, end: t.end, replacement: '', description: 'remove !' });
    } else if ((t.text === 'if' || t.text === 'while') && toks[k + 1]?.text === '(') {
      const close = closing(toks, k + 1);
      if (close === -1) return;
      const open = toks[k + 1];
      const cond = src.slice(open.end, toks[close].start);
      out.push({ start: open.end, end: toks[close].start, replacement: `!(${cond})`, description: `${t.text} condition negated` });
    }
  });
  return out;
}

export function lineOf(src, offset) {
  let line = 1;
  for (let i = src.indexOf('\n'); i !== -1 && i < offset; i = src.indexOf('\n', i + 1)) line++;
  return line;
}
