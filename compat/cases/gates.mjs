// Config variants for which gates GSD activates. Each names what gsd-check
// answers where it differs: a variant without `differs` must run exactly the
// gates gsd-tools loop render-hooks lists, at every point.
export const GATES_CASES = [
  {
    name: 'a config that is not JSON',
    configText: '{"workflow": {"windows_enforce": true},}',
    differs: 'D23',
    // GSD warns and falls back to every default; gsd-check refuses to guess.
    check: (result) => result.status === 2 && /^gsd-check: config .*config\.json is not valid JSON: /.test(result.stderr),
  },
  {
    name: 'a config that gives a key twice',
    configText: '{"workflow": {"windows_enforce": true}, "workflow": {"windows_enforce": false}}',
    differs: 'D23',
    check: (result) => result.status === 2 && /gives the key "workflow" twice/.test(result.stderr),
  },
];
