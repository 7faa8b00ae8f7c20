// The least a gate evaluator must do: start Node, spawn `sh -c true`, read
// both of its pipes to their end (stdout and stderr are a verdict's evidence,
// so gsd-check must read them too), and exit once they are closed.
const child = require('node:child_process').spawn('sh', ['-c', 'true'], { stdio: ['ignore', 'pipe', 'pipe'] });
const chunks = [[], []];
child.stdout.on('data', (chunk) => chunks[0].push(chunk));
child.stderr.on('data', (chunk) => chunks[1].push(chunk));
child.on('close', (code) => {
  process.exitCode = code ?? 1;
});
