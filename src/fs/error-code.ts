// What went wrong, from a thrown value: its system error code (ENOENT,
// EMFILE…) when it has one, else its message. Every reader, writer and the
// runner name failures this way.
export function errorCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : errorText(error);
}

// A thrown value as text: an Error's message, anything else as it prints.
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// A file-system call that failed for want of descriptors says nothing about
// the file: a lookup or read that meets this must fail the gate, never answer
// "not found" or skip it.
export function isOutOfDescriptors(code: string): boolean {
  return code === 'EMFILE' || code === 'ENFILE';
}
