// A system error's code (ENOENT, EMFILE…), or the error as text when it has
// none: how every reader and the runner name what went wrong.
export function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : String(error);
}
