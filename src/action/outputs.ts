import { isJsonObject, parseJson } from '../json/parse.ts';

// The Action's outputs, read from the envelope gsd-check printed: whether it
// blocks, its message, the gates that halted (one `<point> <gate>` a line),
// and the envelope itself as one JSON line. Written once here; metadata.ts
// puts them in action.yml.
export const ACTION_OUTPUTS = [
  { name: 'block', description: 'true when a gate halted or a point could not be evaluated, else false' },
  { name: 'message', description: "the envelope's message: which gates halted and why, or how the gates came out" },
  {
    name: 'halted',
    description: 'the halted gates, one `<point> <capability>#<index>` a line (a point not evaluated: `<point> not-evaluated`); empty when none',
  },
  { name: 'envelope', description: 'the whole envelope gates run printed, as one line of JSON' },
] as const;

type OutputName = (typeof ACTION_OUTPUTS)[number]['name'];

// The outputs of an envelope, or undefined when the text is none (gsd-check
// failed before it could print one).
export function actionOutputs(stdout: string): Record<OutputName, string> | undefined {
  const parsed = parseJson(stdout, 'the envelope');
  if (!parsed.ok || !isJsonObject(parsed.value) || typeof parsed.value.block !== 'boolean' || typeof parsed.value.message !== 'string') return undefined;
  const { block, message, details } = parsed.value;
  return { block: String(block), message, halted: haltedGates(details).join('\n'), envelope: JSON.stringify(parsed.value) };
}

function haltedGates(details: unknown): string[] {
  if (!isJsonObject(details)) return [];
  const points = details.kind === 'points' && Array.isArray(details.points) ? details.points : [details];
  return points.flatMap((point: unknown) => {
    if (!isJsonObject(point) || !Array.isArray(point.gates)) return [];
    if (typeof point.reason === 'string') return [`${String(point.point)} not-evaluated`];
    return point.gates.flatMap((gate: unknown) =>
      isJsonObject(gate) && gate.status === 'halt' ? [`${String(point.point)} ${String(gate.capability)}#${String(gate.index)}`] : [],
    );
  });
}

// GITHUB_OUTPUT's format: `name<<delimiter`, the value, the delimiter, so
// that a value may hold newlines. The delimiter is new for each value and
// checked against it: no value can end its block early and set another.
export function outputFileText(outputs: Readonly<Record<string, string>>, delimiter: () => string): string {
  return Object.entries(outputs)
    .map(([name, value]) => {
      let end = delimiter();
      while (value.includes(end)) end = delimiter();
      return `${name}<<${end}\n${value}\n${end}\n`;
    })
    .join('');
}
