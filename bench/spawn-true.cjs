// The least a gate evaluator must do: start Node, spawn `sh -c true`, wait.
require('node:child_process')
  .spawn('sh', ['-c', 'true'], { stdio: 'ignore' })
  .on('exit', (code) => {
    process.exitCode = code ?? 1;
  });
