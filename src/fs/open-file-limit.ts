// The soft limit on open descriptors, or undefined for none: from the
// process's limits file on Linux, else from Node's diagnostic report, which
// costs a few milliseconds and so is asked for only when the file is missing.
export function openFileLimit(limitsFile: () => string, report: () => unknown): number | undefined {
  let text: string | undefined;
  try {
    text = limitsFile();
  } catch {
    // No /proc: ask the report.
  }
  if (text !== undefined) {
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(text);
    if (match !== null) return match[1] === 'unlimited' ? undefined : Number(match[1]);
  }
  const soft = (report() as { userLimits?: { open_files?: { soft?: unknown } } } | undefined)?.userLimits?.open_files?.soft;
  return typeof soft === 'number' ? soft : undefined;
}
