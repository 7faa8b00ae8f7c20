import { serialize } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { parseWithLibrary, compileYaml } from './frontmatter.ts';

// The body of the thread that off-thread.ts starts: build.mjs bundles
// it into a string, as a standalone binary has no file to start a thread
// from. It parses one frontmatter and posts the result.

const { yaml, file, source } = workerData as { yaml: string; file: string; source: string };
parentPort!.postMessage(serialize(parseWithLibrary(yaml, file, compileYaml(source))));
