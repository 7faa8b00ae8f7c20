import { fail, ok, type Result } from '../failure.ts';
import { readRegular } from '../fs/read.ts';
import { describeCode, MAX_INPUT_BYTES, overCap, unreadable } from '../io/input.ts';
import { isJsonObject, parseJson } from '../json/parse.ts';

// A project's config as JSON: `.planning/config.json` (and a workstream's)
// read by one rule wherever it is read, by the root search and by
// activation, and a --config given on the command line decoded and checked
// by the same rule, whichever reader brought its bytes.

type Config = Record<string, unknown>;

// The config at `path`, or undefined when there is none. Read as a regular
// file only, so that a FIFO planted there cannot stall the root search, with
// the cap of every other input.
export function readConfigFile(path: string, label: string): Result<Config | undefined> {
  const read = readRegular(path, MAX_INPUT_BYTES);
  if (!read.ok) {
    if (read.failure === 'ENOENT' || read.failure === 'ENOTDIR') return ok(undefined);
    return unreadable(label, read.failure === 'NOTREG' ? 'not a regular file' : describeCode(read.failure));
  }
  if (!read.value.complete) return overCap(label);
  return configObject(read.value.bytes, label);
}

// A config's bytes as GSD reads them: bytes that are not UTF-8 read as
// U+FFFD, as GSD's readFileSync(…, 'utf-8') gives them to both its readers,
// a BOM left out; then strict JSON (a key given twice is an error), and an
// object.
export function configObject(bytes: Uint8Array, label: string): Result<Config> {
  const text = new TextDecoder('utf-8', { ignoreBOM: false }).decode(bytes);
  const json = parseJson(text, label);
  if (!json.ok) return json;
  return isJsonObject(json.value) ? ok(json.value) : fail('invalid-json', `${label} is not a JSON object`);
}
