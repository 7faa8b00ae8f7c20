import { fail, ok, type Result } from '../failure.ts';
import { readRegular } from '../fs/read.ts';
import { describeCode, MAX_INPUT_BYTES, overCap, unreadable } from '../io/input.ts';
import { isJsonObject, parseJson } from '../json/parse.ts';

// A project's config as JSON: `.planning/config.json` (and a workstream's)
// read by one rule wherever it is read, by the root search and by
// activation, and a --config given on the command line checked by the same.

type Config = Record<string, unknown>;

// The config at `path`, or undefined when there is none. Read as a regular
// file only, so that a FIFO planted there cannot stall the root search, with
// the cap of every other input; bytes that are not UTF-8 read as U+FFFD, as
// GSD's readFileSync(…, 'utf-8') gives them to both its readers.
export function readConfigFile(path: string, label: string): Result<Config | undefined> {
  const read = readRegular(path, MAX_INPUT_BYTES);
  if (!read.ok) {
    if (read.failure === 'ENOENT' || read.failure === 'ENOTDIR') return ok(undefined);
    return unreadable(label, read.failure === 'NOTREG' ? 'not a regular file' : describeCode(read.failure));
  }
  if (!read.value.complete) return overCap(label);
  return configObject(new TextDecoder('utf-8', { ignoreBOM: false }).decode(read.value.bytes), label);
}

// Strict JSON (a key given twice is an error), and an object.
export function configObject(text: string, label: string): Result<Config> {
  const json = parseJson(text, label);
  if (!json.ok) return json;
  return isJsonObject(json.value) ? ok(json.value) : fail('invalid-json', `${label} is not a JSON object`);
}
