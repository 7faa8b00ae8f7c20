// A file-system call that failed for want of descriptors says nothing about
// the file: a lookup or read that meets this must fail the gate, never answer
// "not found" or skip it.
export function isOutOfDescriptors(code: string): boolean {
  return code === 'EMFILE' || code === 'ENFILE';
}
